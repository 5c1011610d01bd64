package dev.crid;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The shared encode/decode vectors, read from the copy of {@code ids.json} in the test
 * resources.
 */
final class TestVectors {

	private static final JsonNode ROOT = read();

	private TestVectors() {
	}

	private static JsonNode read() {
		try (InputStream in = TestVectors.class.getResourceAsStream("/ids.json")) {
			if (in == null) {
				throw new IllegalStateException("ids.json is missing from the test resources");
			}
			return JsonMapper.builder().build().readTree(in);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static List<JsonNode> vectors() {
		return list("vectors");
	}

	static List<JsonNode> clock() {
		return list("clock");
	}

	static List<JsonNode> invalidLayouts() {
		return list("invalidLayouts");
	}

	static List<JsonNode> invalidJson() {
		return list("invalidJson");
	}

	private static List<JsonNode> list(String name) {
		JsonNode array = ROOT.get(name);
		if (array == null || !array.isArray() || array.isEmpty()) {
			throw new IllegalStateException("ids.json has no entries under \"" + name + "\"");
		}
		return new ArrayList<>(array.values());
	}

}

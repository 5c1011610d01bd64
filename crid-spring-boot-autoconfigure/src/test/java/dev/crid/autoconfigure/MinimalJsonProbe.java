package dev.crid.autoconfigure;

import dev.crid.CridId;
import dev.crid.jackson.CridJacksonModule;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs in {@link MinimalClasspathTest}'s class loader with Jackson but without
 * crid-hibernate: writes a bean with a {@code Long} property, which the module must look
 * at without touching {@code @Crid}.
 */
public final class MinimalJsonProbe {

	private MinimalJsonProbe() {
	}

	/**
	 * Writes a bean with {@link CridJacksonModule}.
	 * @return the JSON
	 */
	public static String run() {
		JsonMapper mapper = JsonMapper.builder().addModule(new CridJacksonModule()).build();
		return mapper.writeValueAsString(new Counted(CridId.of(42), 7L));
	}

	/**
	 * A bean with a crid ID and a number.
	 *
	 * @param id the ID
	 * @param count a number
	 */
	public record Counted(CridId id, Long count) {
	}

}

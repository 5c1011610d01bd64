package dev.crid.autoconfigure;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The project's Markdown holds together: every relative link in {@code README.md},
 * {@code CONTRIBUTING.md}, {@code RELEASING.md}, {@code CHANGELOG.md} and
 * {@code docs/**.md} reaches a file of the repository (and, for a link into a Markdown
 * file, one of its headings), and {@code docs/reference/configuration.md} lists every
 * property of the generated configuration metadata, with the default the metadata gives.
 */
class MarkdownLinksAndConfigurationReferenceTest {

	private static final Pattern INLINE_LINK = Pattern
		.compile("\\[[^\\]]*]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

	private static final Pattern REFERENCE_DEFINITION = Pattern
		.compile("^ {0,3}\\[[^\\]]+]:\\s*<?(\\S+?)>?(?:\\s.*)?$");

	private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");

	private static final Pattern FENCE = Pattern.compile("^ {0,3}(```|~~~).*");

	private static final Pattern ATX_HEADING = Pattern.compile("^ {0,3}#{1,6}[ \\t]+(.*?)(?:[ \\t]+#+)?[ \\t]*$");

	private static final Pattern SETEXT_UNDERLINE = Pattern.compile("^ {0,3}(=+|-+)[ \\t]*$");

	private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");

	private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

	/**
	 * A row of a Markdown table whose first cell is a property name: name, default,
	 * meaning.
	 */
	private static final Pattern PROPERTY_ROW = Pattern
		.compile("^\\|\\s*`([a-z0-9-]+(?:\\.[a-z0-9-]+)+)`\\s*\\|([^|]*)\\|([^|]*)\\|\\s*$");

	private static final Path ROOT = repositoryRoot();

	private final Map<Path, Set<String>> anchors = new HashMap<>();

	@Test
	void everyRelativeLinkReachesAFileAndItsHeading() throws IOException {
		List<String> broken = new ArrayList<>();
		for (Path file : markdownFiles()) {
			List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
			for (String target : linkTargets(lines)) {
				String problem = problem(file, target);
				if (problem != null) {
					broken.add(ROOT.relativize(file) + ": (" + target + ") " + problem);
				}
			}
		}
		assertThat(broken).as("broken relative links").isEmpty();
	}

	@Test
	void configurationReferenceListsEveryPropertyOfTheMetadataWithItsDefault() throws IOException {
		Map<String, JsonNode> metadata = metadataProperties();
		assertThat(metadata).as("the generated metadata").containsKey("crid.enabled");
		Path reference = ROOT.resolve("docs/reference/configuration.md");
		Map<String, String[]> rows = new LinkedHashMap<>();
		for (String line : Files.readAllLines(reference, StandardCharsets.UTF_8)) {
			Matcher row = PROPERTY_ROW.matcher(line);
			if (row.matches()) {
				rows.put(row.group(1), new String[] { row.group(2).strip(), row.group(3).strip() });
			}
		}
		List<String> problems = new ArrayList<>();
		metadata.forEach((name, property) -> {
			String[] row = rows.get(name);
			if (row == null) {
				problems.add(name + " is missing");
				return;
			}
			String documented = row[0].replace("`", "");
			if (property.has("defaultValue") && !documented.equals(property.get("defaultValue").asString())) {
				problems.add(name + " has the default '" + documented + "', the metadata says '"
						+ property.get("defaultValue").asString() + "'");
			}
			if (row[1].length() < 20) {
				problems.add(name + " does not say what it means");
			}
		});
		rows.keySet()
			.stream()
			.filter((name) -> name.startsWith("crid.") || name.contains(".crid."))
			.filter((name) -> !metadata.containsKey(name))
			.forEach((name) -> problems.add(name + " is documented but not in the metadata"));
		assertThat(problems).as("docs/reference/configuration.md against the metadata").isEmpty();
	}

	/** Returns what is wrong with a link target, or {@code null} when it resolves. */
	private String problem(Path file, String target) throws IOException {
		if (target.isEmpty() || SCHEME.matcher(target).find() || target.startsWith("//")) {
			return null;
		}
		int hash = target.indexOf('#');
		String path = URLDecoder.decode((hash >= 0) ? target.substring(0, hash) : target, StandardCharsets.UTF_8);
		String anchor = (hash >= 0) ? target.substring(hash + 1) : null;
		Path resolved = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
		if (!resolved.startsWith(ROOT)) {
			return "leaves the repository";
		}
		if (!Files.exists(resolved)) {
			return "no such file";
		}
		if (anchor == null || !resolved.getFileName().toString().endsWith(".md")) {
			return null;
		}
		String wanted = URLDecoder.decode(anchor, StandardCharsets.UTF_8);
		return anchorsOf(resolved).contains(wanted) ? null : "no heading #" + wanted;
	}

	private Set<String> anchorsOf(Path file) throws IOException {
		Set<String> known = this.anchors.get(file);
		if (known == null) {
			known = anchors(Files.readAllLines(file, StandardCharsets.UTF_8));
			this.anchors.put(file, known);
		}
		return known;
	}

	/** The anchors GitHub gives a file's headings, and the ids of its HTML anchors. */
	static Set<String> anchors(List<String> lines) {
		Set<String> anchors = new HashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		List<String> prose = outsideCode(lines);
		for (int i = 0; i < prose.size(); i++) {
			String line = prose.get(i);
			Matcher html = HTML_ANCHOR.matcher(line);
			while (html.find()) {
				anchors.add(html.group(1));
			}
			String heading = null;
			Matcher atx = ATX_HEADING.matcher(line);
			if (atx.matches()) {
				heading = atx.group(1);
			}
			else if (i + 1 < prose.size() && !line.isBlank() && !line.startsWith("|")
					&& SETEXT_UNDERLINE.matcher(prose.get(i + 1)).matches()) {
				heading = line.strip();
			}
			if (heading != null) {
				String slug = slug(heading);
				int count = seen.merge(slug, 1, Integer::sum);
				anchors.add((count == 1) ? slug : slug + "-" + (count - 1));
			}
		}
		return anchors;
	}

	/**
	 * GitHub's anchor for a heading: its text, lower case, without punctuation, spaces as
	 * hyphens.
	 */
	static String slug(String heading) {
		String text = heading.replaceAll("!?\\[([^\\]]*)]\\([^)]*\\)", "$1").replace("`", "");
		return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\p{Mc}\\p{Mn} _-]", "").replace(' ', '-');
	}

	/**
	 * The link targets of a file's prose: inline links and images (whose text may run
	 * over several lines) and reference definitions.
	 */
	private static List<String> linkTargets(List<String> lines) {
		List<String> targets = new ArrayList<>();
		StringBuilder prose = new StringBuilder();
		for (String line : outsideCode(lines)) {
			String text = CODE_SPAN.matcher(line).replaceAll("");
			prose.append(text).append('\n');
			Matcher definition = REFERENCE_DEFINITION.matcher(text);
			if (definition.matches()) {
				targets.add(definition.group(1));
			}
		}
		Matcher inline = INLINE_LINK.matcher(prose);
		while (inline.find()) {
			targets.add(inline.group(1));
		}
		return targets;
	}

	/**
	 * The lines with fenced code blocks blanked out, so that code is never read as links
	 * or headings.
	 */
	private static List<String> outsideCode(List<String> lines) {
		List<String> prose = new ArrayList<>();
		String fence = null;
		for (String line : lines) {
			Matcher opening = FENCE.matcher(line);
			if (fence == null && opening.matches()) {
				fence = opening.group(1);
				prose.add("");
			}
			else if (fence != null) {
				if (line.strip().startsWith(fence)) {
					fence = null;
				}
				prose.add("");
			}
			else {
				prose.add(line);
			}
		}
		return prose;
	}

	private static List<Path> markdownFiles() throws IOException {
		List<Path> files = new ArrayList<>();
		for (String name : List.of("README.md", "CONTRIBUTING.md", "RELEASING.md", "CHANGELOG.md")) {
			Path file = ROOT.resolve(name);
			assertThat(file).as(name).exists();
			files.add(file);
		}
		try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(files::add);
		}
		return files;
	}

	/** The properties of this module's generated metadata, read from its build output. */
	private static Map<String, JsonNode> metadataProperties() throws IOException {
		Path metadata = classesDirectory().resolve("META-INF/spring-configuration-metadata.json");
		assertThat(metadata).as("the generated configuration metadata").exists();
		Map<String, JsonNode> properties = new LinkedHashMap<>();
		for (JsonNode property : JsonMapper.builder().build().readTree(metadata.toFile()).path("properties")) {
			properties.put(property.get("name").asString(), property);
		}
		return properties;
	}

	private static Path classesDirectory() {
		try {
			return Path.of(CridProperties.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The repository's root: the nearest directory above this module's build output with
	 * the Maven wrapper.
	 */
	private static Path repositoryRoot() {
		for (Path dir = classesDirectory().toAbsolutePath(); dir != null; dir = dir.getParent()) {
			if (Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve("docs"))) {
				return dir;
			}
		}
		throw new IllegalStateException("No repository root with mvnw and docs/ above " + classesDirectory());
	}

}

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarFile;

import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks the artifacts of a release build ({@code ./mvnw -B -Prelease package}) against what crid publishes:
 * every published module has its main, sources and Javadoc jars; each main jar names its automatic module as
 * below; no package is split across the published jars; the BOM's published pom has no parent and manages
 * exactly the published modules at the project's version; and every other module is kept from deployment.
 *
 * <p>Run from the repository root: {@code java .ci/CheckArtifacts.java [build-directory]} (default: the current
 * directory). On success it prints the checked files, one path per line relative to the build directory, for
 * .ci/check-reproducible to compare; problems go to standard error and the exit status is 1.
 */
public class CheckArtifacts {

	/** The published jar modules and their Automatic-Module-Names: a public contract (README, DESIGN). */
	static final Map<String, String> PUBLISHED = new LinkedHashMap<>();
	static {
		PUBLISHED.put("crid-core", "dev.crid");
		PUBLISHED.put("crid-sql", "dev.crid.sql");
		PUBLISHED.put("crid-jdbc", "dev.crid.jdbc");
		PUBLISHED.put("crid-r2dbc", "dev.crid.r2dbc");
		PUBLISHED.put("crid-etcd", "dev.crid.etcd");
		PUBLISHED.put("crid-hibernate", "dev.crid.hibernate");
		PUBLISHED.put("crid-spring-data", "dev.crid.data");
		PUBLISHED.put("crid-spring-boot-autoconfigure", "dev.crid.autoconfigure");
		PUBLISHED.put("crid-spring-boot-starter", "dev.crid.starter");
		PUBLISHED.put("crid-spring-boot-starter-r2dbc", "dev.crid.starter.r2dbc");
	}

	static final String GROUP_ID = "dev.crid";

	static final String BOM = "crid-bom";

	/** The published jars that hold no classes (dependency lists, as Spring Boot's starters are). */
	static final Set<String> CODELESS = Set.of("crid-spring-boot-starter", "crid-spring-boot-starter-r2dbc");

	final Path root;

	final List<String> problems = new ArrayList<>();

	final List<String> checked = new ArrayList<>();

	CheckArtifacts(Path root) {
		this.root = root;
	}

	public static void main(String[] args) throws Exception {
		CheckArtifacts check = new CheckArtifacts(Path.of((args.length > 0) ? args[0] : "."));
		check.run();
		if (!check.problems.isEmpty()) {
			System.err.println("Release artifacts in " + check.root.toAbsolutePath().normalize() + " are not right:");
			check.problems.forEach((problem) -> System.err.println("  - " + problem));
			System.exit(1);
		}
		check.checked.forEach(System.out::println);
	}

	void run() throws Exception {
		Document parent = read(this.root.resolve("pom.xml"));
		String version = text(parent.getDocumentElement(), "version");
		checkModules(parent);
		Map<String, Set<String>> packagesByModule = new TreeMap<>();
		for (Map.Entry<String, String> module : PUBLISHED.entrySet()) {
			String base = module.getKey() + "/target/" + module.getKey() + "-" + version;
			for (String classifier : List.of("", "-sources", "-javadoc")) {
				exists(base + classifier + ".jar");
			}
			Path jar = this.root.resolve(base + ".jar");
			if (Files.isRegularFile(jar)) {
				packagesByModule.put(module.getKey(), checkJar(jar, module.getKey(), module.getValue()));
			}
		}
		checkNoSplitPackages(packagesByModule);
		String bom = BOM + "/target/" + BOM + "-" + version + ".pom";
		if (exists(bom)) {
			checkBom(read(this.root.resolve(bom)), version);
		}
	}

	/** Every module of the build is published, is the BOM, or skips deployment: none is left undecided. */
	void checkModules(Document parent) throws Exception {
		for (Element module : children(parent.getDocumentElement(), "modules", "module")) {
			String name = module.getTextContent().trim();
			if (PUBLISHED.containsKey(name) || name.equals(BOM)) {
				continue;
			}
			Element properties = child(read(this.root.resolve(name).resolve("pom.xml")).getDocumentElement(),
					"properties");
			if (properties == null || !"true".equals(text(properties, "maven.deploy.skip"))) {
				this.problems.add("module " + name + " is neither published (in .ci/CheckArtifacts.java and crid-bom)"
						+ " nor kept from deployment (<maven.deploy.skip>true</maven.deploy.skip> in its pom)");
			}
		}
	}

	Set<String> checkJar(Path jar, String module, String moduleName) throws IOException {
		Set<String> packages = new TreeSet<>();
		try (JarFile file = new JarFile(jar.toFile())) {
			String actual = (file.getManifest() != null)
					? file.getManifest().getMainAttributes().getValue("Automatic-Module-Name") : null;
			if (!moduleName.equals(actual)) {
				this.problems.add(this.root.relativize(jar) + " has Automatic-Module-Name " + actual
						+ " instead of " + moduleName);
			}
			file.stream()
				.map((entry) -> entry.getName())
				.filter((name) -> name.endsWith(".class") && !name.startsWith("META-INF/"))
				.map((name) -> (name.contains("/") ? name.substring(0, name.lastIndexOf('/')) : "")
					.replace('/', '.'))
				.forEach(packages::add);
		}
		if (CODELESS.contains(module) && !packages.isEmpty()) {
			this.problems.add(this.root.relativize(jar) + " should hold no classes but has packages " + packages);
		}
		if (!CODELESS.contains(module) && packages.isEmpty()) {
			this.problems.add(this.root.relativize(jar) + " holds no classes");
		}
		return packages;
	}

	void checkNoSplitPackages(Map<String, Set<String>> packagesByModule) {
		Map<String, String> owner = new TreeMap<>();
		packagesByModule.forEach((module, packages) -> packages.forEach((pkg) -> {
			String first = owner.putIfAbsent(pkg, module);
			if (first != null) {
				this.problems.add("package " + pkg + " is split across " + first + " and " + module);
			}
		}));
	}

	/** The BOM as users import it: no parent, and exactly the published modules at the project's version. */
	void checkBom(Document bom, String version) {
		Element project = bom.getDocumentElement();
		if (child(project, "parent") != null) {
			this.problems.add(BOM + "'s published pom has a parent: importing it would bring the parent's "
					+ "managed versions");
		}
		Set<String> managed = new TreeSet<>();
		Element management = child(project, "dependencyManagement");
		for (Element dependency : (management != null) ? children(management, "dependencies", "dependency")
				: List.<Element>of()) {
			managed.add(text(dependency, "groupId") + ":" + text(dependency, "artifactId") + ":"
					+ text(dependency, "version") + ((text(dependency, "scope") != null) ? ":" + text(dependency,
							"scope") : ""));
		}
		Set<String> expected = new TreeSet<>();
		PUBLISHED.keySet().forEach((module) -> expected.add(GROUP_ID + ":" + module + ":" + version));
		if (!managed.equals(expected)) {
			this.problems.add(BOM + "'s published pom manages " + managed + " instead of " + expected);
		}
		if (child(project, "dependencies") != null) {
			this.problems.add(BOM + "'s published pom has dependencies of its own");
		}
	}

	boolean exists(String relative) {
		if (Files.isRegularFile(this.root.resolve(relative))) {
			this.checked.add(relative);
			return true;
		}
		this.problems.add(relative + " is missing");
		return false;
	}

	static Document read(Path pom) throws Exception {
		DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
		factory.setNamespaceAware(false);
		return factory.newDocumentBuilder().parse(pom.toFile());
	}

	static Element child(Element parent, String name) {
		for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
			if (node instanceof Element element && element.getTagName().equals(name)) {
				return element;
			}
		}
		return null;
	}

	static List<Element> children(Element parent, String container, String name) {
		List<Element> found = new ArrayList<>();
		Element list = child(parent, container);
		for (Node node = (list != null) ? list.getFirstChild() : null; node != null; node = node.getNextSibling()) {
			if (node instanceof Element element && element.getTagName().equals(name)) {
				found.add(element);
			}
		}
		return found;
	}

	static String text(Element parent, String name) {
		Element element = child(parent, name);
		return (element != null) ? element.getTextContent().trim() : null;
	}

}

package dev.crid.autoconfigure;

import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import dev.crid.CridNode;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.context.annotation.Import;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.core.type.MethodMetadata;
import org.springframework.core.type.classreading.MetadataReaderFactory;
import org.springframework.core.type.classreading.SimpleMetadataReaderFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every dependency of this module but crid-core, Spring Boot's core and its SQL
 * initialization types (the type of {@code initialize-schema}) is optional. This test
 * starts an application in a class loader that holds nothing else — no crid-jdbc, JDBC,
 * Hibernate, Jackson, Micrometer or actuator — which {@code FilteredClassLoader} cannot
 * prove, since it hides classes only from the conditions, not from the auto-configuration
 * classes themselves. It also writes JSON with {@link CridJacksonModule} where Jackson is
 * present but crid-hibernate, which holds {@code @Crid}, is not.
 */
class MinimalClasspathTest {

	private static final Pattern ALLOWED = Pattern
		.compile("(spring-boot|spring-boot-autoconfigure|spring-boot-sql|spring-core|"
				+ "spring-beans|spring-context|spring-aop|spring-expression|spring-jcl|micrometer-observation|"
				+ "micrometer-commons|jspecify|logback-classic|logback-core|slf4j-api|jul-to-slf4j|log4j-to-slf4j|"
				+ "log4j-api|snakeyaml|commons-logging)-[0-9][^/]*\\.jar");

	private static final Pattern JACKSON = Pattern.compile("jackson-(core|databind|annotations)-[0-9][^/]*\\.jar");

	@Test
	void startsWithCridCoreAndSpringBootAlone() throws Exception {
		// What crid's auto-configurations load when a @ConditionalOnClass lets them
		// through: each class must exist (a misspelt name would turn its feature off for
		// good), and all but those of crid-core and of the jars Spring Boot cannot start
		// without (Micrometer's Observation API comes with spring-context) must be
		// missing here, so that the application below starts only if every guard holds.
		Set<String> guarded = classesNamedByConditionalOnClass();
		assertThat(guarded).contains("org.hibernate.SessionFactory", "tools.jackson.databind.JacksonModule",
				"io.micrometer.core.instrument.MeterRegistry",
				"org.springframework.boot.health.contributor.HealthIndicator",
				"org.springframework.boot.actuate.endpoint.annotation.Endpoint",
				"io.micrometer.observation.ObservationRegistry");
		ClassLoader previous = Thread.currentThread().getContextClassLoader();
		try (URLClassLoader loader = classLoader(ALLOWED)) {
			for (String name : guarded) {
				Class<?> type = Class.forName(name, false, getClass().getClassLoader());
				if (location(type).equals(location(CridNode.class))
						|| ALLOWED.matcher(Path.of(location(type).toURI()).getFileName().toString()).matches()) {
					assertThat(loader.loadClass(name)).as(name).isNotNull();
				}
				else {
					assertThatExceptionOfType(ClassNotFoundException.class).as(name)
						.isThrownBy(() -> loader.loadClass(name));
				}
			}
			Thread.currentThread().setContextClassLoader(loader);
			String result = (String) loader.loadClass(MinimalClasspathProbe.class.getName())
				.getMethod("run")
				.invoke(null);
			assertThat(result).startsWith("dev.crid.InMemoryRegistry ")
				.contains("cridNode")
				.contains("cridParser")
				.doesNotContain("cridHealthIndicator")
				.doesNotContain("cridJacksonModule");
		}
		finally {
			Thread.currentThread().setContextClassLoader(previous);
		}
	}

	@Test
	void writesJsonWithoutCridHibernate() throws Exception {
		try (URLClassLoader loader = classLoader(ALLOWED, JACKSON)) {
			assertThatExceptionOfType(ClassNotFoundException.class)
				.isThrownBy(() -> loader.loadClass("dev.crid.hibernate.Crid"));
			String json = (String) loader.loadClass(MinimalJsonProbe.class.getName()).getMethod("run").invoke(null);
			assertThat(json).isEqualTo("{\"id\":\"42\",\"count\":7}");
		}
	}

	/**
	 * Returns the classes named by {@code @ConditionalOnClass} on crid's
	 * auto-configurations, on the configurations they nest or import, and on their bean
	 * methods, read from the class files without loading them.
	 */
	private static Set<String> classesNamedByConditionalOnClass() throws IOException {
		MetadataReaderFactory readers = new SimpleMetadataReaderFactory();
		Deque<String> toRead = new ArrayDeque<>();
		ImportCandidates.load(AutoConfiguration.class, MinimalClasspathTest.class.getClassLoader()).forEach((name) -> {
			if (name.startsWith("dev.crid.")) {
				toRead.add(name);
			}
		});
		assertThat(toRead).as("crid's auto-configurations").isNotEmpty();
		Set<String> read = new HashSet<>();
		Set<String> guarded = new TreeSet<>();
		while (!toRead.isEmpty()) {
			String name = toRead.pop();
			if (!read.add(name)) {
				continue;
			}
			AnnotationMetadata metadata = readers.getMetadataReader(name).getAnnotationMetadata();
			guarded.addAll(namedByConditionalOnClass(metadata));
			for (MethodMetadata method : metadata.getAnnotatedMethods(ConditionalOnClass.class.getName())) {
				guarded.addAll(namedByConditionalOnClass(method));
			}
			toRead.addAll(Arrays.asList(metadata.getMemberClassNames()));
			Map<String, Object> imports = metadata.getAnnotationAttributes(Import.class.getName(), true);
			if (imports != null) {
				toRead.addAll(Arrays.asList((String[]) imports.get("value")));
			}
		}
		return guarded;
	}

	private static Set<String> namedByConditionalOnClass(AnnotatedTypeMetadata metadata) {
		Map<String, Object> attributes = metadata.getAnnotationAttributes(ConditionalOnClass.class.getName(), true);
		Set<String> names = new HashSet<>();
		if (attributes != null) {
			names.addAll(Arrays.asList((String[]) attributes.get("value")));
			names.addAll(Arrays.asList((String[]) attributes.get("name")));
		}
		return names;
	}

	/**
	 * Returns a class loader with crid-core, this module's classes and tests, and the
	 * jars that match.
	 */
	private static URLClassLoader classLoader(Pattern... jars) throws Exception {
		List<URL> urls = new ArrayList<>();
		urls.add(location(CridNode.class));
		urls.add(location(CridAutoConfiguration.class));
		urls.add(location(MinimalClasspathTest.class));
		String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
		for (String entry : classpath.split(File.pathSeparator)) {
			String name = Path.of(entry).getFileName().toString();
			for (Pattern jar : jars) {
				if (jar.matcher(name).matches()) {
					urls.add(Path.of(entry).toUri().toURL());
				}
			}
		}
		return new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
	}

	private static URL location(Class<?> type) throws URISyntaxException, MalformedURLException {
		return type.getProtectionDomain().getCodeSource().getLocation().toURI().toURL();
	}

}

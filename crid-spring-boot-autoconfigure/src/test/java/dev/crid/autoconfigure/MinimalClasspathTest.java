package dev.crid.autoconfigure;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import dev.crid.CridNode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every dependency of this module but crid-core and Spring Boot's core is optional. This test starts an
 * application in a class loader that holds nothing else — no crid-jdbc, JDBC, Hibernate, Jackson,
 * Micrometer or actuator — which {@code FilteredClassLoader} cannot prove, since it hides classes only
 * from the conditions, not from the auto-configuration classes themselves. It also writes JSON with
 * {@link CridJacksonModule} where Jackson is present but crid-hibernate, which holds {@code @Crid}, is
 * not.
 */
class MinimalClasspathTest {

	private static final Pattern ALLOWED = Pattern.compile("(spring-boot|spring-boot-autoconfigure|spring-core|"
			+ "spring-beans|spring-context|spring-aop|spring-expression|spring-jcl|micrometer-observation|"
			+ "micrometer-commons|jspecify|logback-classic|logback-core|slf4j-api|jul-to-slf4j|log4j-to-slf4j|"
			+ "log4j-api|snakeyaml|commons-logging)-[0-9][^/]*\\.jar");

	private static final Pattern JACKSON = Pattern.compile("jackson-(core|databind|annotations)-[0-9][^/]*\\.jar");

	@Test
	void startsWithCridCoreAndSpringBootAlone() throws Exception {
		ClassLoader previous = Thread.currentThread().getContextClassLoader();
		try (URLClassLoader loader = classLoader(ALLOWED)) {
			for (String absent : new String[] { "dev.crid.jdbc.JdbcTemplateRegistry", "javax.sql.DataSource.Missing",
					"org.springframework.jdbc.core.JdbcTemplate", "org.hibernate.SessionFactory",
					"tools.jackson.databind.JacksonModule", "io.micrometer.core.instrument.MeterRegistry",
					"org.springframework.boot.health.contributor.HealthIndicator",
					"org.springframework.boot.actuate.endpoint.annotation.Endpoint" }) {
				assertThatExceptionOfType(ClassNotFoundException.class).isThrownBy(() -> loader.loadClass(absent));
			}
			Thread.currentThread().setContextClassLoader(loader);
			String result = (String) loader.loadClass(MinimalClasspathProbe.class.getName()).getMethod("run").invoke(null);
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
	 * Returns a class loader with crid-core, this module's classes and tests, and the jars that match.
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

package dev.crid.autoconfigure.registry;

import java.util.List;

import dev.crid.autoconfigure.RegistryType;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * What each kind of registry needs of the application, and the order in which
 * {@code crid.registry.type=auto} tries them. A kind to come joins with its needs here
 * and its place in {@link #AUTO_ORDER}.
 */
final class RegistryNeeds {

	static final String JDBC_REGISTRY_CLASS = "dev.crid.jdbc.JdbcTemplateRegistry";

	static final String JDBC_TEMPLATE_CLASS = "org.springframework.jdbc.core.JdbcTemplate";

	static final String EMBEDDED_DATABASE_CLASS = "org.springframework.boot.jdbc.EmbeddedDatabaseConnection";

	static final String R2DBC_REGISTRY_CLASS = "dev.crid.r2dbc.R2dbcRegistry";

	static final String CONNECTION_FACTORY_CLASS = "io.r2dbc.spi.ConnectionFactory";

	static final String MONO_CLASS = "reactor.core.publisher.Mono";

	/** The kinds {@code auto} takes, the first the application has all the needs of. */
	static final List<RegistryType> AUTO_ORDER = List.of(RegistryType.JDBC, RegistryType.R2DBC, RegistryType.MEMORY);

	private static final List<Need> JDBC = List.of(Need.onClasspath(JDBC_REGISTRY_CLASS, "dev.crid:crid-jdbc"),
			Need.onClasspath(JDBC_TEMPLATE_CLASS, "org.springframework:spring-jdbc"),
			Need.onClasspath(EMBEDDED_DATABASE_CLASS, "org.springframework.boot:spring-boot-jdbc"),
			Need.bean("javax.sql.DataSource", "a DataSource bean (spring.datasource.url and a JDBC driver)"));

	private static final List<Need> R2DBC = List.of(Need.onClasspath(R2DBC_REGISTRY_CLASS, "dev.crid:crid-r2dbc"),
			Need.onClasspath(CONNECTION_FACTORY_CLASS, "io.r2dbc:r2dbc-spi"),
			Need.onClasspath(MONO_CLASS, "io.projectreactor:reactor-core"), Need.bean(CONNECTION_FACTORY_CLASS,
					"an R2DBC ConnectionFactory bean (spring.r2dbc.url and an R2DBC driver)"));

	private RegistryNeeds() {
	}

	/**
	 * Returns what the kind of registry needs and the application lacks.
	 * @param type the kind
	 * @param classLoader where the application's classes are
	 * @param beanFactory the application's beans, as registered so far
	 * @return the needs missing, in words, or none
	 */
	static List<String> missing(RegistryType type, @Nullable ClassLoader classLoader, ListableBeanFactory beanFactory) {
		List<Need> needs = switch (type) {
			case JDBC -> JDBC;
			case R2DBC -> R2DBC;
			case MEMORY, AUTO -> List.of();
		};
		return needs.stream().filter((need) -> !need.isMet(classLoader, beanFactory)).map(Need::missing).toList();
	}

	/**
	 * A class on the classpath, or a bean of a type.
	 *
	 * @param className the class, or the bean's type
	 * @param missing what the application lacks when the need is not met
	 * @param bean whether a bean of the type is needed, not only the class
	 */
	private record Need(String className, String missing, boolean bean) {

		static Need onClasspath(String className, String artifact) {
			return new Need(className, artifact + " on the classpath", false);
		}

		static Need bean(String className, String missing) {
			return new Need(className, missing, true);
		}

		boolean isMet(@Nullable ClassLoader classLoader, ListableBeanFactory beanFactory) {
			if (!ClassUtils.isPresent(this.className, classLoader)) {
				return false;
			}
			return !this.bean || beanFactory
				.getBeanNamesForType(ClassUtils.resolveClassName(this.className, classLoader), true, false).length > 0;
		}

	}

}

package dev.crid.autoconfigure.registry;

import java.util.List;

import dev.crid.autoconfigure.RegistryType;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
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

	static final String ETCD_REGISTRY_CLASS = "dev.crid.etcd.EtcdRegistry";

	static final String ETCD_CLIENT_CLASS = "io.etcd.jetcd.Client";

	/** The property whose value makes {@code auto} choose the etcd registry. */
	static final String ETCD_ENDPOINTS = "crid.registry.etcd.endpoints";

	/**
	 * The kinds {@code auto} takes, the first the application has all the needs of. etcd
	 * comes first because only its own property asks for it: the endpoints are set for
	 * crid's registry and nothing else, while a DataSource may be there for the
	 * application's data alone.
	 */
	static final List<RegistryType> AUTO_ORDER = List.of(RegistryType.ETCD, RegistryType.JDBC, RegistryType.R2DBC,
			RegistryType.MEMORY);

	private static final List<Need> JDBC = List.of(Need.onClasspath(JDBC_REGISTRY_CLASS, "dev.crid:crid-jdbc"),
			Need.onClasspath(JDBC_TEMPLATE_CLASS, "org.springframework:spring-jdbc"),
			Need.onClasspath(EMBEDDED_DATABASE_CLASS, "org.springframework.boot:spring-boot-jdbc"),
			Need.bean("javax.sql.DataSource", "a DataSource bean (spring.datasource.url and a JDBC driver)"));

	private static final List<Need> R2DBC = List.of(Need.onClasspath(R2DBC_REGISTRY_CLASS, "dev.crid:crid-r2dbc"),
			Need.onClasspath(CONNECTION_FACTORY_CLASS, "io.r2dbc:r2dbc-spi"),
			Need.onClasspath(MONO_CLASS, "io.projectreactor:reactor-core"), Need.bean(CONNECTION_FACTORY_CLASS,
					"an R2DBC ConnectionFactory bean (spring.r2dbc.url and an R2DBC driver)"));

	private static final List<Need> ETCD = List.of(Need.onClasspath(ETCD_REGISTRY_CLASS, "dev.crid:crid-etcd"),
			Need.onClasspath(ETCD_CLIENT_CLASS, "io.etcd:jetcd-core"),
			Need.property(ETCD_ENDPOINTS, ETCD_ENDPOINTS + " (the client URLs of the etcd cluster's members)"));

	private RegistryNeeds() {
	}

	/**
	 * Tells whether {@value #ETCD_ENDPOINTS} is set, to at least one endpoint.
	 * @param environment the application's environment
	 * @return whether the etcd registry's endpoints are set
	 */
	static boolean etcdEndpointsSet(Environment environment) {
		return Binder.get(environment)
			.bind(ETCD_ENDPOINTS, Bindable.listOf(String.class))
			.map((endpoints) -> !endpoints.isEmpty())
			.orElse(false);
	}

	/**
	 * Returns what the kind of registry needs and the application lacks.
	 * @param type the kind
	 * @param classLoader where the application's classes are
	 * @param beanFactory the application's beans, as registered so far
	 * @param environment the application's properties
	 * @return the needs missing, in words, or none
	 */
	static List<String> missing(RegistryType type, @Nullable ClassLoader classLoader, ListableBeanFactory beanFactory,
			Environment environment) {
		List<Need> needs = switch (type) {
			case JDBC -> JDBC;
			case R2DBC -> R2DBC;
			case ETCD -> ETCD;
			case MEMORY, AUTO -> List.of();
		};
		return needs.stream()
			.filter((need) -> !need.isMet(classLoader, beanFactory, environment))
			.map(Need::missing)
			.toList();
	}

	/**
	 * A class on the classpath, a bean of a type, or a property set.
	 *
	 * @param name the class, the bean's type, or the property
	 * @param missing what the application lacks when the need is not met
	 * @param kind what is needed of the name
	 */
	private record Need(String name, String missing, Kind kind) {

		static Need onClasspath(String className, String artifact) {
			return new Need(className, artifact + " on the classpath", Kind.CLASS);
		}

		static Need bean(String className, String missing) {
			return new Need(className, missing, Kind.BEAN);
		}

		static Need property(String property, String missing) {
			return new Need(property, missing, Kind.PROPERTY);
		}

		boolean isMet(@Nullable ClassLoader classLoader, ListableBeanFactory beanFactory, Environment environment) {
			return switch (this.kind) {
				case CLASS -> ClassUtils.isPresent(this.name, classLoader);
				case BEAN -> ClassUtils.isPresent(this.name, classLoader) && beanFactory
					.getBeanNamesForType(ClassUtils.resolveClassName(this.name, classLoader), true, false).length > 0;
				case PROPERTY -> etcdEndpointsSet(environment);
			};
		}

		/** What a need asks for. */
		private enum Kind {

			CLASS, BEAN, PROPERTY

		}

	}

}

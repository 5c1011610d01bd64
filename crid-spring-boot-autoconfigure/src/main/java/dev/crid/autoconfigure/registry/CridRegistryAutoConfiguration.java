package dev.crid.autoconfigure.registry;

import dev.crid.CridNode;
import dev.crid.Registry;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.CridProperties;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of the {@link Registry} the nodes reserve their blocks in, one kind
 * chosen in this order: the application's own {@code Registry} bean, which replaces them
 * all; else the kind {@code crid.registry.type} names; else, for {@code auto} (the
 * default), the etcd registry when {@code crid.registry.etcd.endpoints} is set, else the
 * database registry on the application's DataSource, else on its R2DBC ConnectionFactory,
 * else an in-memory registry (with a warning: IDs are then unique within this process
 * only). Each kind also makes the registries of the named nodes
 * ({@code crid.nodes.<name>}), on tables (or etcd key prefixes) of their own.
 */
@AutoConfiguration(before = CridAutoConfiguration.class,
		afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration" })
@ConditionalOnClass(CridNode.class)
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@EnableConfigurationProperties(CridProperties.class)
@Import({ EtcdRegistryConfiguration.class, JdbcRegistryConfiguration.class, R2dbcRegistryConfiguration.class,
		InMemoryRegistryConfiguration.class, CredentialSanitizing.class })
public final class CridRegistryAutoConfiguration {

	CridRegistryAutoConfiguration() {
	}

}

package dev.crid.autoconfigure.registry;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.util.ClassUtils;

/**
 * What a native image must keep for the choice of a registry: the classes whose presence
 * {@link RegistryNeeds} checks by name ({@code ClassUtils.isPresent} finds in a native
 * image only the types it was told about), and the database registries' schema scripts
 * (crid-sql's), which a missing table's failure prints and an R2DBC registry runs.
 * Registered in {@code META-INF/spring/aot.factories}.
 */
class RegistryRuntimeHints implements RuntimeHintsRegistrar {

	/** A class of crid-sql, which holds the schema scripts. */
	static final String SQL_DIALECT_CLASS = "dev.crid.sql.SqlDialect";

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		for (String name : List.of(RegistryNeeds.JDBC_REGISTRY_CLASS, RegistryNeeds.JDBC_TEMPLATE_CLASS,
				RegistryNeeds.EMBEDDED_DATABASE_CLASS, RegistryNeeds.R2DBC_REGISTRY_CLASS,
				RegistryNeeds.CONNECTION_FACTORY_CLASS, RegistryNeeds.MONO_CLASS, RegistryNeeds.ETCD_REGISTRY_CLASS,
				RegistryNeeds.ETCD_CLIENT_CLASS)) {
			if (ClassUtils.isPresent(name, classLoader)) {
				hints.reflection().registerType(TypeReference.of(name));
			}
		}
		if (ClassUtils.isPresent(SQL_DIALECT_CLASS, classLoader)) {
			hints.resources().registerPattern("dev/crid/jdbc/schema-*.sql");
		}
	}

}

package dev.crid.autoconfigure.data.r2dbc;

import java.util.Locale;

import dev.crid.RegistryException;
import dev.crid.autoconfigure.CridConfigurationException;
import dev.crid.autoconfigure.CridProperties.SchemaInitialization;
import dev.crid.data.r2dbc.R2dbcRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Prepares the R2DBC registry's tables once every bean exists (so after Flyway, Liquibase
 * and SQL scripts) and before the node reserves its first block: creates them when
 * {@code crid.registry.r2dbc.initialize-schema} asks for it (embedded: H2), else checks
 * that they exist. A missing table stops start-up; an unreachable database does not, as
 * it may come up later.
 */
final class R2dbcSchemaInitializer implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(R2dbcSchemaInitializer.class);

	private final R2dbcRegistry registry;

	private final SchemaInitialization mode;

	private final boolean embedded;

	R2dbcSchemaInitializer(R2dbcRegistry registry, SchemaInitialization mode, boolean embedded) {
		this.registry = registry;
		this.mode = mode;
		this.embedded = embedded;
	}

	@Override
	public void afterSingletonsInstantiated() {
		try {
			if (this.mode == SchemaInitialization.ALWAYS
					|| (this.mode == SchemaInitialization.EMBEDDED && this.embedded)) {
				this.registry.ensureSchema();
			}
			else {
				this.registry.verifySchema();
			}
		}
		catch (RegistryException ex) {
			if (ex.isRetryable() || !String.valueOf(ex.getMessage()).contains("does not exist")) {
				logger.warn("Could not check the crid registry table '" + this.registry.tableName()
						+ "' at start-up, the database did not answer: " + ex.getMessage());
				return;
			}
			throw new CridConfigurationException(
					ex.getMessage() + " (crid.registry.r2dbc.initialize-schema is "
							+ this.mode.name().toLowerCase(Locale.ROOT) + ")",
					"Create the tables with these statements (from Flyway, Liquibase or spring.sql.init scripts):\n"
							+ String.join(";\n", this.registry.schema()) + ";\n"
							+ "or set crid.registry.r2dbc.initialize-schema=always to let crid create them.",
					ex);
		}
	}

}

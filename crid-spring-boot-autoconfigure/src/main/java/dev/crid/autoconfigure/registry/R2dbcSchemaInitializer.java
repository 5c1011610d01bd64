package dev.crid.autoconfigure.registry;

import java.util.List;
import java.util.Locale;

import dev.crid.RegistryException;
import dev.crid.autoconfigure.CridConfigurationException;
import dev.crid.autoconfigure.Setting;
import dev.crid.autoconfigure.Violation;
import dev.crid.r2dbc.R2dbcRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * Prepares the R2DBC registry's tables once, when it is created: creates them when
 * {@code crid.registry.r2dbc.initialize-schema} asks for it (embedded: H2), else checks
 * that they exist. A missing table stops start-up; an unreachable database does not, as
 * it may come up later.
 *
 * <p>
 * A database initializer, found by {@link RegistrySchemaInitializerDetector}: Spring Boot
 * creates it after Flyway, Liquibase and the SQL scripts (any of which may create the
 * tables), and creates the application's {@link dev.crid.CridNode} beans after it (see
 * {@link CridNodeDependsOnDatabaseInitializationDetector}), so no node reserves its first
 * block before the tables are there.
 */
final class R2dbcSchemaInitializer implements InitializingBean, DatabaseRegistryInitializer {

	private static final Log logger = LogFactory.getLog(R2dbcSchemaInitializer.class);

	private final String node;

	private final R2dbcRegistry registry;

	private final DatabaseInitializationMode mode;

	private final boolean embedded;

	/**
	 * Creates the initializer of a node's registry.
	 * @param node the node's name, for the properties a failure names
	 */
	R2dbcSchemaInitializer(String node, R2dbcRegistry registry, DatabaseInitializationMode mode, boolean embedded) {
		this.node = node;
		this.registry = registry;
		this.mode = mode;
		this.embedded = embedded;
	}

	@Override
	public void afterPropertiesSet() {
		try {
			if (this.mode == DatabaseInitializationMode.ALWAYS
					|| (this.mode == DatabaseInitializationMode.EMBEDDED && this.embedded)) {
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
			throw new CridConfigurationException(this.node,
					List.of(new Violation(Setting.R2DBC_INITIALIZE_SCHEMA, this.mode.name().toLowerCase(Locale.ROOT),
							"left the tables uncreated, and they do not exist: " + ex.getMessage())),
					"The statements that create them:\n\n    " + String.join(";\n    ", this.registry.schema()) + ";",
					ex);
		}
	}

}

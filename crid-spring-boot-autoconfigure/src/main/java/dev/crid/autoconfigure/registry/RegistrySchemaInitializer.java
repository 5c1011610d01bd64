package dev.crid.autoconfigure.registry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

import javax.sql.DataSource;

import dev.crid.RegistryException;
import dev.crid.autoconfigure.CridConfigurationException;
import dev.crid.autoconfigure.Setting;
import dev.crid.autoconfigure.Violation;
import dev.crid.jdbc.JdbcTemplateRegistry;
import dev.crid.jdbc.MissingTableException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.core.io.ClassPathResource;

/**
 * Prepares the registry table once, when it is created: creates it when
 * {@code crid.registry.jdbc.initialize-schema} asks for it, else checks that it exists.
 *
 * <p>
 * A database initializer like Flyway's, found by
 * {@link RegistrySchemaInitializerDetector}: Spring Boot creates it after Flyway,
 * Liquibase and the SQL scripts (any of which may create the table), and creates the
 * application's {@link dev.crid.CridNode} beans after it (see
 * {@link CridNodeDependsOnDatabaseInitializationDetector}), so no node reserves a block
 * before the table is ready.
 */
final class RegistrySchemaInitializer implements InitializingBean, DatabaseRegistryInitializer {

	private static final Log logger = LogFactory.getLog(RegistrySchemaInitializer.class);

	private final JdbcTemplateRegistry registry;

	private final DataSource dataSource;

	private final DatabaseInitializationMode mode;

	private final String node;

	/**
	 * Creates the initializer of a node's registry.
	 * @param node the node's name, for the properties a failure names
	 */
	RegistrySchemaInitializer(String node, JdbcTemplateRegistry registry, DataSource dataSource,
			DatabaseInitializationMode mode) {
		this.node = node;
		this.registry = registry;
		this.dataSource = dataSource;
		this.mode = mode;
	}

	@Override
	public void afterPropertiesSet() {
		prepare();
	}

	private void prepare() {
		if (this.mode == DatabaseInitializationMode.ALWAYS || (this.mode == DatabaseInitializationMode.EMBEDDED
				&& EmbeddedDatabaseConnection.isEmbedded(this.dataSource))) {
			this.registry.ensureSchema();
			return;
		}
		verify();
	}

	/**
	 * A missing table stops start-up; an unreachable database does not, as it may come up
	 * later: the health indicator reports it and {@code nextId()} fails until then.
	 */
	private void verify() {
		try {
			this.registry.verifySchema();
		}
		catch (MissingTableException ex) {
			String location = schemaScript(ex);
			throw missingTable(ex, location);
		}
		catch (RegistryException ex) {
			logger.warn("Could not check the crid registry table '" + this.registry.tableName()
					+ "' at start-up, the database did not answer: " + ex.getMessage());
		}
	}

	private CridConfigurationException missingTable(MissingTableException ex, String location) {
		String why = (this.mode == DatabaseInitializationMode.NEVER) ? ""
				: " (and " + describeDatabase() + " is not an embedded database)";
		return new CridConfigurationException(this.node,
				List.of(new Violation(Setting.JDBC_INITIALIZE_SCHEMA, this.mode.name().toLowerCase(Locale.ROOT),
						"left the table '" + ex.tableName() + "' uncreated" + why + ", and it does not exist")),
				"The statements that create it (" + location + " in crid-jdbc):\n\n" + indent(script(location)), ex);
	}

	private static String indent(String text) {
		return "    " + text.strip().replace("\n", "\n    ");
	}

	/**
	 * The script of the database's own dialect, which the registry knows once it has
	 * connected.
	 */
	private String schemaScript(MissingTableException ex) {
		try {
			return this.registry.schemaScript();
		}
		catch (RuntimeException notDetected) {
			return ex.schemaScript();
		}
	}

	private String describeDatabase() {
		try {
			return this.registry.dialect().name();
		}
		catch (RuntimeException ex) {
			return "the database";
		}
	}

	private String script(String location) {
		ClassPathResource resource = new ClassPathResource(location, JdbcTemplateRegistry.class.getClassLoader());
		try (InputStream in = resource.getInputStream()) {
			String script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			return script.replace(JdbcTemplateRegistry.DEFAULT_TABLE_NAME, this.registry.tableName());
		}
		catch (IOException ex) {
			return "(the script could not be read: " + ex.getMessage() + ")";
		}
	}

}

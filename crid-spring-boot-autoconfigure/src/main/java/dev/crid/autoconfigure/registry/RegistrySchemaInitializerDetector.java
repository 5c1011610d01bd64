package dev.crid.autoconfigure.registry;

import java.util.Collections;
import java.util.Set;

import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDatabaseInitializerDetector;
import org.springframework.core.Ordered;

/**
 * Tells Spring Boot that the {@link DatabaseRegistryInitializer}s, the
 * {@link RegistrySchemaInitializer} of a registry on JDBC and the
 * {@link R2dbcSchemaInitializer} of one on R2DBC, initialize the database, as
 * {@code FlywayDatabaseInitializerDetector} does for Flyway: beans that depend on
 * database initialization (the application's {@code CridNode} beans among them) are
 * created after it. Registered in {@code META-INF/spring.factories}.
 *
 * <p>
 * Ordered after the detectors of Flyway and Liquibase (order 0) and of the SQL scripts
 * ({@code LOWEST_PRECEDENCE - 100}): Spring Boot creates the initializers a later
 * detector finds after those an earlier one found, so the registry table that a migration
 * or a script creates exists when this initializer checks it.
 */
class RegistrySchemaInitializerDetector extends AbstractBeansOfTypeDatabaseInitializerDetector {

	/** The order of this detector among those of the database's other initializers. */
	static final int ORDER = Ordered.LOWEST_PRECEDENCE - 50;

	@Override
	protected Set<Class<?>> getDatabaseInitializerBeanTypes() {
		return Collections.singleton(DatabaseRegistryInitializer.class);
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}

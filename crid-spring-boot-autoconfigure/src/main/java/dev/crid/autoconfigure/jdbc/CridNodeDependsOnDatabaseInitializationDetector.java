package dev.crid.autoconfigure.jdbc;

import java.util.Collections;
import java.util.Set;

import dev.crid.CridNode;

import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDependsOnDatabaseInitializationDetector;
import org.springframework.core.env.Environment;

/**
 * Makes {@link CridNode} beans wait for database initialization (Flyway, Liquibase, SQL scripts), so that a
 * node used while the application starts finds a registry table that a migration creates.
 *
 * <p>Not when {@code spring.jpa.defer-datasource-initialization=true}: Hibernate then counts as a database
 * initializer while it needs the node for its ID generator, and the dependency would be a cycle. The
 * schema initializer still runs before the node's first allocation in that case, see
 * {@link RegistrySchemaInitializer}.
 */
class CridNodeDependsOnDatabaseInitializationDetector extends AbstractBeansOfTypeDependsOnDatabaseInitializationDetector {

	private final Environment environment;

	CridNodeDependsOnDatabaseInitializationDetector(Environment environment) {
		this.environment = environment;
	}

	@Override
	protected Set<Class<?>> getDependsOnDatabaseInitializationBeanTypes() {
		boolean deferred = this.environment.getProperty("spring.jpa.defer-datasource-initialization", boolean.class,
				false);
		return deferred ? Collections.emptySet() : Collections.singleton(CridNode.class);
	}

}

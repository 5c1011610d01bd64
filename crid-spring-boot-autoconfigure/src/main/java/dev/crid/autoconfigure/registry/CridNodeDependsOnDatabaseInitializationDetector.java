package dev.crid.autoconfigure.registry;

import java.util.Arrays;
import java.util.Collections;
import java.util.Set;

import dev.crid.CridNode;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.sql.init.dependency.DatabaseInitializerDetector;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitializationDetector;

/**
 * Makes {@link CridNode} beans wait for database initialization (Flyway, Liquibase, SQL
 * scripts and the {@link RegistrySchemaInitializer}), so that a node used while the
 * application starts finds its registry table ready, and reserves its first block when it
 * is created. Registered in {@code META-INF/spring.factories}.
 *
 * <p>
 * Spring Boot finds the database's initializers before it asks this detector, and marks
 * each one's bean definition with the detector that found it. When one of them is
 * Hibernate (Spring Boot's JPA detector finds the entity manager factory when Hibernate
 * initializes the database itself), the nodes are left alone: Hibernate takes its IDs
 * from a node, so a node cannot wait for it. The auto-configured node is then still
 * created after the initializers, unless a bean created before asks for it: the schema
 * initializer's bean comes first, and Hibernate is handed a lookup of the node rather
 * than the node (see {@code CridHibernateAutoConfiguration}).
 */
class CridNodeDependsOnDatabaseInitializationDetector implements DependsOnDatabaseInitializationDetector {

	private static final String JPA_DETECTOR = "org.springframework.boot.jpa.JpaDatabaseInitializerDetector";

	@Override
	public Set<String> detect(ConfigurableListableBeanFactory beanFactory) {
		if (Arrays.stream(beanFactory.getBeanDefinitionNames())
			.map((name) -> beanFactory.getBeanDefinition(name)
				.getAttribute(DatabaseInitializerDetector.class.getName()))
			.anyMatch(JPA_DETECTOR::equals)) {
			return Collections.emptySet();
		}
		return Set.of(beanFactory.getBeanNamesForType(CridNode.class, true, false));
	}

}

package dev.crid.autoconfigure;

import java.time.Instant;

import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;
import dev.crid.CridNode;
import dev.crid.autoconfigure.jpa.Ticket;
import dev.crid.autoconfigure.hibernate.CridHibernateAutoConfiguration;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.persistence.autoconfigure.EntityScan;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The registry table created by a Flyway migration, with Hibernate taking its IDs from
 * the node, on H2: the node waits for the migration even when it is used while the
 * application starts, and Hibernate as a deferred database initializer makes no
 * dependency cycle.
 */
class CridJpaFlywayTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, FlywayAutoConfiguration.class,
				HibernateJpaAutoConfiguration.class, CridRegistryAutoConfiguration.class, CridAutoConfiguration.class,
				CridHibernateAutoConfiguration.class))
		.withUserConfiguration(Entities.class)
		.withPropertyValues("spring.flyway.locations=classpath:dev/crid/autoconfigure/flyway",
				"spring.jpa.hibernate.ddl-auto=none", "crid.registry.jdbc.initialize-schema=never",
				"crid.registry.jdbc.table-name=migrated_ids");

	@Test
	void aNodeUsedDuringStartUpWaitsForTheMigration() {
		this.runner.withUserConfiguration(CridAutoConfigurationTest.EarlyUser.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(CridAutoConfigurationTest.EarlyUser.class).firstId).isPositive();
			assertThat(context.getBeanFactory().getBeanDefinition("cridNode").getDependsOn())
				.as("the node waits for the migration")
				.contains("flywayInitializer");
			assertPersistsWithCridIds(context);
		});
	}

	@Test
	void hibernateAsADeferredInitializerMakesNoCycle() {
		this.runner.withPropertyValues("spring.jpa.defer-datasource-initialization=true").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBeanFactory().getBeanDefinition("cridNode").getDependsOn()).isNullOrEmpty();
			assertPersistsWithCridIds(context);
		});
	}

	private static void assertPersistsWithCridIds(AssertableApplicationContext context) {
		EntityManager entityManager = context.getBean(EntityManagerFactory.class).createEntityManager();
		try {
			entityManager.getTransaction().begin();
			Ticket ticket = new Ticket("first");
			entityManager.persist(ticket);
			entityManager.getTransaction().commit();
			CridNode node = context.getBean(CridNode.class);
			assertThat(node.parser().parse(ticket.getId()).timestamp()).isBetween(Instant.now().minusSeconds(30),
					Instant.now());
		}
		finally {
			entityManager.close();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EntityScan(basePackageClasses = Ticket.class)
	static class Entities {

	}

}

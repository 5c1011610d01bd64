package dev.crid.autoconfigure.data;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.jdbc.core.JdbcAggregateTemplate;
import org.springframework.data.jdbc.core.convert.JdbcCustomConversions;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.misusedaggregates.MisusedAggregates;
import dev.crid.namedaggregates.NamedNodeAggregates;
import dev.crid.CridNode;
import dev.crid.autoconfigure.CridNodes;
import dev.crid.autoconfigure.StartupFailures;
import dev.crid.autoconfigure.data.shelf.Bin;
import dev.crid.autoconfigure.data.shelf.Shelf;
import dev.crid.autoconfigure.data.shelf.ShelfApplication;
import dev.crid.data.CridIdConverters;
import dev.crid.data.CridJdbcCallback;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auto-configuration of crid for Spring Data JDBC.
 */
class CridDataJdbcAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
				DataSourceTransactionManagerAutoConfiguration.class, DataJdbcRepositoriesAutoConfiguration.class,
				CridRegistryAutoConfiguration.class, CridAutoConfiguration.class, CridDataJdbcAutoConfiguration.class))
		.withUserConfiguration(ShelfApplication.class)
		.withPropertyValues("spring.datasource.url=jdbc:h2:mem:crid-data-jdbc-auto;DB_CLOSE_DELAY=-1",
				"spring.datasource.generate-unique-name=false");

	@Test
	void aggregatesWithCridGetTheNodesIdsWithoutHibernateOnTheClasspath() {
		this.runner.withClassLoader(new FilteredClassLoader("org.hibernate")).run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(CridJdbcCallback.class);
			JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
			jdbc.execute("CREATE TABLE IF NOT EXISTS crid_shelf (id BIGINT PRIMARY KEY, aisle VARCHAR(20))");
			try {
				Shelf saved = context.getBean(JdbcAggregateTemplate.class).save(new Shelf(null, "7b"));
				assertThat(saved.id()).isPositive();
				assertThat(jdbc.queryForObject("SELECT aisle FROM crid_shelf WHERE id = ?", String.class, saved.id()))
					.isEqualTo("7b");
			}
			finally {
				jdbc.execute("DROP TABLE crid_shelf");
			}
		});
	}

	@Test
	void cridIdIdsAreStoredAsNumbersWithTheConvertersRegistered() {
		this.runner.withUserConfiguration(CridIdConversions.class).run((context) -> {
			assertThat(context).hasNotFailed();
			JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
			jdbc.execute("CREATE TABLE IF NOT EXISTS crid_bin (id BIGINT PRIMARY KEY, label VARCHAR(20))");
			try {
				JdbcAggregateTemplate template = context.getBean(JdbcAggregateTemplate.class);
				Bin saved = template.save(new Bin(null, "bolts"));
				assertThat(saved.id()).isNotNull();
				assertThat(jdbc.queryForObject("SELECT label FROM crid_bin WHERE id = ?", String.class,
						saved.id().value()))
					.isEqualTo("bolts");
				assertThat(template.findById(saved.id(), Bin.class)).isEqualTo(saved);
			}
			finally {
				jdbc.execute("DROP TABLE crid_bin");
			}
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class CridIdConversions {

		@Bean
		JdbcCustomConversions jdbcCustomConversions() {
			return new JdbcCustomConversions(CridIdConverters.all());
		}

	}

	@Test
	void misusedAggregatesStopStartUpNamingEveryAggregateAndField() {
		this.runner.withUserConfiguration(MisusedAggregates.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(StartupFailures.cridFailure(context.getStartupFailure())).isNotNull()
				.hasMessageContaining("Spring Data JDBC")
				.hasMessageContaining(MisusedAggregates.IntegerId.class.getName()
						+ ".id is \"java.lang.Integer\" but must " + "be a long")
				.hasMessageContaining(MisusedAggregates.CridOnAReference.class.getName() + ".reference is "
						+ "\"@dev.crid.data.Crid\" but must annotate the aggregate's @Id only")
				.hasMessageContaining(MisusedAggregates.UnknownNode.class.getName() + ".id")
				.hasMessageContaining("nobody")
				.hasMessageContaining("default");
		});
	}

	@Test
	void aggregatesOfANamedNodeGetThatNodesIds() {
		this.runner.withUserConfiguration(NamedNodeAggregates.class)
			.withPropertyValues("crid.nodes.public.timestamp-bits=41", "crid.nodes.public.sequence-bits=22")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
				jdbc.execute("CREATE TABLE IF NOT EXISTS crid_named_label (id BIGINT PRIMARY KEY, text VARCHAR(20))");
				try {
					CridNode publicNode = context.getBean(CridNodes.class).get("public");
					long issued = publicNode.stats().idsIssued();
					NamedNodeAggregates.Label saved = context.getBean(JdbcAggregateTemplate.class)
						.save(new NamedNodeAggregates.Label(null, "fragile"));
					assertThat(saved.id()).isLessThan(1L << 53);
					assertThat(publicNode.stats().idsIssued()).isEqualTo(issued + 1);
					assertThat(publicNode.parser().parse(saved.id()).sequence())
						.isLessThanOrEqualTo(publicNode.layout().maxSequence());
				}
				finally {
					jdbc.execute("DROP TABLE crid_named_label");
				}
			});
	}

	@Test
	void anAggregateOfANodeNotConfiguredStopsStartUpNamingTheKnownNodes() {
		this.runner.withUserConfiguration(NamedNodeAggregates.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(StartupFailures.cridFailure(context.getStartupFailure())).isNotNull()
				.hasMessageContaining(NamedNodeAggregates.Label.class.getName() + ".id")
				.hasMessageContaining("public")
				.hasMessageContaining("default");
		});
	}

	@Test
	void backsOffWhenCridIsSwitchedOff() {
		this.runner.withPropertyValues("crid.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(CridJdbcCallback.class));
	}

	@Test
	void backsOffWhenTheUserDefinesTheCallback() {
		this.runner
			.withBean("myCallback", CridJdbcCallback.class,
					() -> new CridJdbcCallback(dev.crid.CridNode.builder(new dev.crid.InMemoryRegistry()).build(),
							new org.springframework.data.jdbc.core.mapping.JdbcMappingContext()))
			.run((context) -> assertThat(context).hasNotFailed()
				.getBeans(CridJdbcCallback.class)
				.containsOnlyKeys("myCallback"));
	}

}

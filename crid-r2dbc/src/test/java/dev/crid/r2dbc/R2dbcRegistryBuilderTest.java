package dev.crid.r2dbc;

import java.time.Duration;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryMetadata;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

import dev.crid.InvalidConfigException;
import dev.crid.InvalidConfigException.Violation;
import dev.crid.testsupport.R2dbcTestDatabases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.entry;

/**
 * What {@link R2dbcRegistry.Builder} accepts and rejects, and what the registry tells of
 * itself before it touches its database: nothing here opens a connection.
 */
class R2dbcRegistryBuilderTest {

	private final ConnectionFactory h2 = R2dbcTestDatabases.h2("crid-r2dbc-never-opened");

	@Test
	void defaultsToTheGoCridTableAndTellsItsKindAndDetailsWithoutTheDatabase() {
		R2dbcRegistry registry = R2dbcRegistry.builder(this.h2).build();
		assertThat(registry.tableName()).isEqualTo("crid_allocations").isEqualTo(R2dbcRegistry.DEFAULT_TABLE_NAME);
		assertThat(registry.retention()).isEqualTo(Duration.ofDays(1)).isEqualTo(R2dbcRegistry.DEFAULT_RETENTION);
		assertThat(R2dbcRegistry.DEFAULT_QUERY_TIMEOUT).isEqualTo(Duration.ofSeconds(5));
		assertThat(registry.kind()).isEqualTo("r2dbc");
		assertThat(registry.details()).containsExactly(entry("table", "crid_allocations"), entry("dialect", "h2"));
		assertThat(registry.schemaScript()).isEqualTo("dev/crid/jdbc/schema-h2.sql");
		assertThat(registry).hasToString("R2dbcRegistry[table=crid_allocations, dialect=H2]");
		assertThat(R2dbcRegistry.builder(this.h2).retention(Duration.ZERO).build().retention()).isNull();
	}

	@Test
	void reportsEveryViolationAtOnceADatabaseWithoutStatementsAmongThem() {
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> R2dbcRegistry.builder(database("Oracle Database"))
				.tableName("x;y")
				.queryTimeout(Duration.ZERO)
				.retention(Duration.ofMillis(10))
				.build())
			.satisfies((ex) -> assertThat(ex.violations()).extracting(Violation::message).hasSize(4))
			.withMessageContaining("connectionFactory is \"Oracle Database\"")
			.withMessageContaining("PostgreSQL, MariaDB (10.5 and later) and H2")
			.withMessageContaining("tableName is \"x;y\"")
			.withMessageContaining("queryTimeout is PT0S")
			.withMessageContaining("retention is PT0.01S");
	}

	@Test
	void tellsEachDatabaseByTheNameItsDriverGives() {
		assertThat(R2dbcRegistry.builder(database("PostgreSQL")).build().details()).containsEntry("dialect",
				"postgresql");
		assertThat(R2dbcRegistry.builder(database("MariaDB")).build().details()).containsEntry("dialect", "mariadb");
		assertThat(R2dbcRegistry.builder(database("H2")).build().details()).containsEntry("dialect", "h2");
	}

	/**
	 * A connection factory that only names its database, as the drivers' metadata does:
	 * enough for what the builder reads, and never asked for a connection.
	 */
	private static ConnectionFactory database(String name) {
		return new ConnectionFactory() {

			@Override
			public Publisher<? extends Connection> create() {
				return Mono.error(new IllegalStateException("never opened"));
			}

			@Override
			public ConnectionFactoryMetadata getMetadata() {
				return () -> name;
			}

		};
	}

}

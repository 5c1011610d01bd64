package dev.crid.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Reading a dialect from configuration by its name.
 */
class JdbcDialectTest {

	@ParameterizedTest
	@CsvSource({ "postgresql, POSTGRESQL", "MariaDB, MARIADB", "MYSQL, MYSQL", "h2, H2", "' generic ', GENERIC" })
	void readsEveryDialectByItsNameInAnyCase(String name, JdbcDialect expected) {
		assertThat(JdbcDialect.of(name)).isEqualTo(expected);
	}

	@ParameterizedTest
	@ValueSource(strings = { "oracle", "auto", "maria-db", "postgres" })
	@NullAndEmptySource
	void refusesAnUnknownNameQuotingItAndNamingEveryKnownDialect(String name) {
		assertThatIllegalArgumentException().isThrownBy(() -> JdbcDialect.of(name))
			.withMessageContaining((name != null) ? "\"" + name + "\"" : "null")
			.withMessageEndingWith("the known dialects are postgresql, mariadb, mysql, h2, generic");
	}

	@Test
	void namesEveryDialect() {
		assertThat(JdbcDialect.names().split(", ")).hasSize(JdbcDialect.values().length);
	}

}

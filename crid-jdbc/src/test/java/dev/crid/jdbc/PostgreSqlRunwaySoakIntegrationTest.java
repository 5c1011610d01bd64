package dev.crid.jdbc;

import java.time.Duration;

/**
 * A runway of 2 minutes through a 2-minute black hole, at 100,000 IDs a second, on
 * PostgreSQL: only with {@code -Psoak}.
 */
class PostgreSqlRunwaySoakIntegrationTest extends AbstractRunwayIntegrationTest {

	PostgreSqlRunwaySoakIntegrationTest() {
		super(Duration.ofMinutes(2), 100_000, true);
	}

}

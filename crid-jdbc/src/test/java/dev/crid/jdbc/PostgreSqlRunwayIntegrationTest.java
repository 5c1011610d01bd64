package dev.crid.jdbc;

import java.time.Duration;

/**
 * A runway of 10 s through a 10 s cut, at 50,000 IDs a second, on PostgreSQL.
 */
class PostgreSqlRunwayIntegrationTest extends AbstractRunwayIntegrationTest {

	PostgreSqlRunwayIntegrationTest() {
		super(Duration.ofSeconds(10), 50_000, false);
	}

}

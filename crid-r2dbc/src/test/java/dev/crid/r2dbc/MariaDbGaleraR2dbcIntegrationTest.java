package dev.crid.r2dbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.r2dbc.pool.ConnectionPool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.crid.testsupport.GaleraCluster;
import dev.crid.testsupport.GaleraWrites;
import dev.crid.testsupport.R2dbcTestDatabases;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The R2DBC registry on a 3-node MariaDB Galera cluster of its own
 * ({@link GaleraCluster}), every member taking writes, with Galera's defaults
 * ({@code wsrep_retry_autocommit} at 1): six nodes with blocks of 1 to 100 and no
 * prefetching (so that they reserve often, and at once), two on each member's connection
 * factory, two threads each ({@link GaleraWrites}). Every block the registries handed out
 * is checked against every other of its second, and no ID repeats. The registry takes its
 * statement from crid-sql as the JDBC registry does, so on a member it reserves with
 * {@code LAST_INSERT_ID(expr)}, which its details name (with {@code RETURNING}: 39, 61
 * and 104 overlapping blocks in three runs, 155, 452 and 793 repeated IDs). It prints
 * what it measured.
 */
class MariaDbGaleraR2dbcIntegrationTest {

	private static final Duration RUN = Duration.ofSeconds(2);

	private static final String TABLE = "crid_galera_r2dbc";

	private static GaleraCluster cluster;

	@BeforeAll
	static void startCluster() throws Exception {
		GaleraCluster.requireInstalled();
		cluster = GaleraCluster.start();
	}

	@AfterAll
	static void stopCluster() throws Exception {
		if (cluster != null) {
			cluster.close();
		}
	}

	@Test
	void nodesOnEveryMemberRepeatNoIdAndGetNoOverlappingBlock() throws Exception {
		List<ConnectionPool> pools = new ArrayList<>();
		try {
			for (int member = 0; member < 3; member++) {
				pools.add(R2dbcTestDatabases
					.pool(R2dbcTestDatabases.connectionFactory(cluster.url(member), GaleraCluster.USER, ""), 4));
			}
			List<R2dbcRegistry> registries = new ArrayList<>();
			for (int n = 0; n < 6; n++) {
				registries.add(R2dbcRegistry.builder(pools.get(n % pools.size())).tableName(TABLE).build());
			}
			registries.get(0).ensureSchema();
			GaleraWrites.Outcome outcome = GaleraWrites.run(cluster, registries, RUN);
			System.out.println("Galera on R2DBC, writes to every member: " + outcome);
			outcome.assertNothingRepeated(100);
			for (R2dbcRegistry registry : registries) {
				assertThat(registry.details()).as("the statements a registry on a member runs")
					.containsEntry("dialect", "mysql");
			}
		}
		finally {
			pools.forEach(ConnectionPool::dispose);
		}
	}

}

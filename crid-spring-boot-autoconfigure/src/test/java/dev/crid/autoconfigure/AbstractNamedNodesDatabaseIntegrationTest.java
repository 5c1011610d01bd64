package dev.crid.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.zaxxer.hikari.HikariDataSource;
import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;
import dev.crid.CridNode;
import dev.crid.testsupport.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Named nodes on a real database: each reserves in a table of its own, no node repeats an
 * ID under many threads and small blocks, and two nodes on one table with different
 * layouts are refused by the layout the database records, naming both. Every table is
 * this run's own and dropped at the end.
 */
abstract class AbstractNamedNodesDatabaseIntegrationTest {

	private static final AtomicInteger tableNumbers = new AtomicInteger();

	private final List<String> tables = new ArrayList<>();

	private HikariDataSource admin;

	private TestDatabase.Endpoint endpoint;

	protected abstract TestDatabase database();

	@BeforeEach
	void connect() {
		this.endpoint = database().endpoint();
		this.admin = database().dataSource(1);
	}

	@AfterEach
	void dropTables() {
		this.tables.forEach((table) -> TestDatabase.dropRegistryTables(this.admin, table));
		this.admin.close();
	}

	@Test
	void eachNodeReservesInItsOwnTableAndNoneRepeatsAnId() throws Exception {
		String defaultTable = newTable();
		String publicTable = newTable();
		String tenantTable = newTable();
		runner()
			.withPropertyValues("crid.registry.jdbc.table-name=" + defaultTable, "crid.block-size=50",
					"crid.threshold=25", "crid.nodes.public.timestamp-bits=41", "crid.nodes.public.sequence-bits=22",
					"crid.nodes.public.registry.jdbc.table-name=" + publicTable, "crid.nodes.tenant_b.block-size=20",
					"crid.nodes.tenant_b.threshold=10", "crid.nodes.tenant_b.registry.jdbc.table-name=" + tenantTable)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CridNodes nodes = context.getBean(CridNodes.class);
				for (String name : nodes.names()) {
					CridNode node = nodes.get(name);
					assertThat(takeIds(node, 4, 2_000)).as(name).hasSize(8_000);
				}
				JdbcTemplate jdbc = new JdbcTemplate(this.admin);
				for (String table : List.of(defaultTable, publicTable, tenantTable)) {
					assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM " + table, Long.class)).as(table).isPositive();
				}
				assertThat(nodes.get("tenant_b").blockSize()).isEqualTo(20);
				assertThat(nodes.get("public").layout().sequenceBits()).isEqualTo(22);
			});
	}

	@Test
	void twoNodesOnOneTableWithDifferentLayoutsAreRefusedNamingBoth() {
		String table = newTable();
		runner()
			.withPropertyValues("crid.registry.jdbc.table-name=" + table, "crid.nodes.public.timestamp-bits=41",
					"crid.nodes.public.sequence-bits=22", "crid.nodes.public.registry.jdbc.table-name=" + table)
			.run((context) -> {
				FailureAnalysis analysis = StartupFailures.analyze(context);
				assertThat(analysis.getDescription()).contains("'" + table + "'")
					.containsAnyOf(
							"used by the default node (crid.*) with another layout than that of the node "
									+ "'public' (crid.nodes.public.*)",
							"used by the node 'public' (crid.nodes.public.*) with "
									+ "another layout than that of the default node (crid.*)");
			});
	}

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					CridRegistryAutoConfiguration.class, CridAutoConfiguration.class))
			.withPropertyValues("spring.datasource.url=" + this.endpoint.url(),
					"spring.datasource.username=" + this.endpoint.username(),
					"spring.datasource.password=" + this.endpoint.password(),
					"spring.datasource.hikari.maximum-pool-size=4", "crid.registry.jdbc.initialize-schema=always");
	}

	private String newTable() {
		String table = "crid_named_it_" + Long.toHexString(System.nanoTime() & 0xffffff) + "_"
				+ tableNumbers.incrementAndGet();
		this.tables.add(table);
		return table;
	}

	private static Set<Long> takeIds(CridNode node, int threads, int perThread) throws Exception {
		Set<Long> ids = ConcurrentHashMap.newKeySet();
		AtomicInteger duplicates = new AtomicInteger();
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				futures.add(executor.submit(() -> {
					start.await();
					for (int i = 0; i < perThread; i++) {
						if (!ids.add(node.nextId())) {
							duplicates.incrementAndGet();
						}
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : futures) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(duplicates).hasValue(0);
		return ids;
	}

}

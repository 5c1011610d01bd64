package dev.crid.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.crid.CridNode;
import dev.crid.RegistryException;
import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole stack on a pool too small for it, on PostgreSQL: 8 threads, each with a node of its own and
 * inside a transaction that holds one of the pool's 2 connections, need their first block synchronously.
 * Each call of {@code nextId()} returns an ID or fails with a {@link RegistryException} within the
 * timeouts; none hangs, and no ID repeats.
 */
class CridNodesInTransactionsOnASmallPoolIntegrationTest {

	@Test
	void everyThreadGetsAnIdOrAClearErrorInTime() throws Exception {
		String table = "crid_nodes_small_pool_" + ProcessHandle.current().pid();
		Duration allocationTimeout = Duration.ofSeconds(2);
		try (HikariDataSource dataSource = TestDatabase.POSTGRESQL.dataSource(2)) {
			JdbcTemplate jdbcTemplate = new JdbcTemplate(dataSource);
			JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(jdbcTemplate)
				.tableName(table)
				.queryTimeout(Duration.ofSeconds(1))
				.build();
			registry.ensureSchema();
			TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
			ExecutorService executor = Executors.newFixedThreadPool(8);
			List<CridNode> nodes = new ArrayList<>();
			try {
				List<Future<Object>> outcomes = new ArrayList<>();
				for (int i = 0; i < 8; i++) {
					CridNode node = CridNode.builder(registry)
						.blockSize(10)
						.threshold(0)
						.allocationTimeout(allocationTimeout)
						.build();
					nodes.add(node);
					outcomes.add(executor.submit(() -> inTransaction(transactions, jdbcTemplate, node, allocationTimeout)));
				}
				Set<Long> ids = new HashSet<>();
				for (Future<Object> future : outcomes) {
					Object outcome = future.get(60, TimeUnit.SECONDS);
					if (outcome instanceof Long id) {
						assertThat(ids.add(id)).as("ID %d issued once", id).isTrue();
					}
					else {
						assertThat((RegistryException) outcome).hasMessageContaining("timeout");
					}
				}
			}
			finally {
				executor.shutdown();
				nodes.forEach(CridNode::close);
				jdbcTemplate.execute("DROP TABLE IF EXISTS " + table);
			}
		}
	}

	private static Object inTransaction(TransactionTemplate transactions, JdbcTemplate jdbcTemplate, CridNode node,
			Duration allocationTimeout) {
		try {
			return transactions.execute((status) -> {
				jdbcTemplate.queryForObject("SELECT 1", Integer.class);
				long started = System.nanoTime();
				try {
					return node.nextId();
				}
				finally {
					assertThat(Duration.ofNanos(System.nanoTime() - started)).as("nextId() inside a transaction")
						.isLessThan(allocationTimeout.plusSeconds(2));
				}
			});
		}
		catch (RegistryException ex) {
			return ex;
		}
	}

}

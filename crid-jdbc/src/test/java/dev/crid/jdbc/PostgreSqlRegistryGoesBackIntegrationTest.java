package dev.crid.jdbc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.CridNode;
import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A registry table that goes back, as after a restore from a backup or a failover to a
 * replica that lagged, on PostgreSQL: the node that was given the lost blocks refuses
 * them and moves on to the next second, but a node that never saw them is handed them
 * again and repeats IDs. The second half is the limit that docs/RELIABILITY.md states,
 * shown here so that the documentation cannot claim more than holds.
 */
class PostgreSqlRegistryGoesBackIntegrationTest {

	private final String table = "crid_goes_back_" + ProcessHandle.current().pid();

	private final StandingClock clock = new StandingClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));

	private HikariDataSource dataSource;

	private JdbcTemplate jdbcTemplate;

	private JdbcTemplateRegistry registry;

	@BeforeEach
	void createTable() {
		this.dataSource = TestDatabase.POSTGRESQL.dataSource(4);
		this.jdbcTemplate = new JdbcTemplate(this.dataSource);
		this.registry = JdbcTemplateRegistry.builder(this.jdbcTemplate).tableName(this.table).build();
		this.registry.ensureSchema();
	}

	@AfterEach
	void dropTable() {
		if (this.dataSource != null) {
			TestDatabase.dropRegistryTables(this.dataSource, this.table);
			this.dataSource.close();
		}
	}

	@Test
	void nodeThatWasGivenTheLostBlocksRefusesThemAndANodeThatWasNotRepeatsTheirIds() throws Exception {
		try (CridNode first = node(); CridNode second = node()) {
			Set<Long> firstIds = take(first, 100);
			long second0 = first.layout().timestampOf(firstIds.iterator().next());
			goBack(second0);
			Set<Long> secondIds = take(second, 100);
			assertThat(secondIds).as("a node that never saw the lost block is handed it again")
				.containsExactlyInAnyOrderElementsOf(firstIds);
			goBack(second0);
			// The clock still reads the same second: the first node waits for the next
			// one.
			CompletableFuture<Long> next = CompletableFuture.supplyAsync(first::nextId);
			await().atMost(Duration.ofSeconds(10)).until(() -> first.stats().registryWentBack() == 1);
			assertThat(next).isNotDone();
			this.clock.advance(Duration.ofSeconds(1));
			long id = next.get(10, TimeUnit.SECONDS);
			assertThat(first.layout().timestampOf(id)).isEqualTo(second0 + 1);
			assertThat(firstIds).doesNotContain(id);
		}
	}

	private CridNode node() {
		return CridNode.builder(this.registry).clock(this.clock).blockSize(100).threshold(0).build();
	}

	private static Set<Long> take(CridNode node, int count) {
		Set<Long> ids = new HashSet<>();
		for (int i = 0; i < count; i++) {
			assertThat(ids.add(node.nextId())).isTrue();
		}
		return ids;
	}

	/** Forgets every reservation of the second, as a backup taken before it would. */
	private void goBack(long timestamp) {
		assertThat(this.jdbcTemplate.update("DELETE FROM " + this.table + " WHERE ts = ?", timestamp)).isOne();
	}

	/** A clock that stands still until the test moves it on. */
	private static final class StandingClock extends Clock {

		private final AtomicReference<Instant> now;

		StandingClock(Instant now) {
			this.now = new AtomicReference<>(now);
		}

		void advance(Duration duration) {
			this.now.updateAndGet((instant) -> instant.plus(duration));
		}

		@Override
		public Instant instant() {
			return this.now.get();
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			throw new UnsupportedOperationException("Always UTC");
		}

	}

}

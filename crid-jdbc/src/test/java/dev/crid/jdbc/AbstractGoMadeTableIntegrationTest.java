package dev.crid.jdbc;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.RegistryException;
import dev.crid.testsupport.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A table the Go crid made: {@code (ts BIGINT PRIMARY KEY, next_seq BIGINT NOT NULL)}
 * with rows and no metadata table beside it, created here by hand as the Go crid does.
 * Java nodes join it, keep its rows and continue each second where Go left off; the
 * metadata table is added where the registry may, else the registry runs without it after
 * one warning. Each test works in tables of its own and drops them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractGoMadeTableIntegrationTest {

	/** The password of the user the test creates. */
	protected static final String PASSWORD = "crid-test-no-create";

	/** What Go nodes reserved in each of their seconds before the Java nodes came. */
	private static final long GO_NEXT_SEQUENCE = 7_000_000;

	private final List<LogRecord> warnings = new CopyOnWriteArrayList<>();

	private final Handler warningRecorder = new Handler() {

		@Override
		public void publish(LogRecord record) {
			if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
				AbstractGoMadeTableIntegrationTest.this.warnings.add(record);
			}
		}

		@Override
		public void flush() {
		}

		@Override
		public void close() {
		}

	};

	private final Logger registryLogger = Logger.getLogger(JdbcTemplateRegistry.class.getName());

	private HikariDataSource admin;

	private JdbcTemplate jdbcTemplate;

	/**
	 * Returns the database, reached as its administrator.
	 * @return the database
	 */
	protected abstract TestDatabase database();

	/**
	 * Returns the statements that create a user with the given name and
	 * {@link #PASSWORD}, who may read and write the allocation table but not create
	 * tables.
	 * @param user the user's name
	 * @param table the allocation table
	 * @return the statements
	 */
	protected abstract String[] createUserWithoutCreateRights(String user, String table);

	/**
	 * Returns the statements that drop the user again.
	 * @param user the user's name
	 * @param table the allocation table
	 * @return the statements
	 */
	protected abstract String[] dropUser(String user, String table);

	@BeforeAll
	void connect() {
		this.admin = database().dataSource(4);
		this.jdbcTemplate = new JdbcTemplate(this.admin);
	}

	@AfterAll
	void disconnect() {
		if (this.admin != null) {
			this.admin.close();
		}
	}

	@BeforeEach
	void recordWarnings() {
		this.warnings.clear();
		this.registryLogger.addHandler(this.warningRecorder);
	}

	@AfterEach
	void stopRecordingWarnings() {
		this.registryLogger.removeHandler(this.warningRecorder);
	}

	@Test
	void verifySchemaReportsTheMissingMetadataTableAndEnsureSchemaAddsItKeepingTheRows() {
		String table = goTable("ensure", 100);
		try {
			JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(this.jdbcTemplate).tableName(table).build();
			assertThat(registry.verifySchema()).as("the metadata table is there").isFalse();
			registry.ensureSchema();
			assertThat(registry.verifySchema()).as("the metadata table is there").isTrue();
			assertThat(this.jdbcTemplate.queryForList("SELECT next_seq FROM " + table + " ORDER BY ts", Long.class))
				.as("Go's rows")
				.hasSize(120)
				.containsOnly(GO_NEXT_SEQUENCE);
			assertThat(registry.allocate(101, 10)).as("a second Go used").isEqualTo(GO_NEXT_SEQUENCE);
			assertThat(registry.allocate(100 + 120, 10)).as("a second Go never used").isZero();
			assertThat(this.warnings).isEmpty();
		}
		finally {
			TestDatabase.dropRegistryTables(this.admin, table);
		}
	}

	@Test
	void theFirstReservationAddsTheMetadataTableAndTheNodeContinuesWhereGoLeftOff() {
		String table = goTable("first", now() - 10);
		try (CridNode node = CridNode.builder(JdbcTemplateRegistry.builder(this.jdbcTemplate).tableName(table).build())
			.build()) {
			long id = node.nextId();
			assertContinuesWhereGoLeftOff(table, id);
			assertThat(this.jdbcTemplate.queryForList("SELECT timestamp_bits, sequence_bits FROM " + table + "_meta"))
				.as("the layout, recorded in the metadata table the reservation added")
				.singleElement()
				.satisfies((row) -> assertThat(row.values()).extracting((value) -> ((Number) value).intValue())
					.containsExactly(31, 32));
			assertThat(this.warnings).isEmpty();
		}
		finally {
			TestDatabase.dropRegistryTables(this.admin, table);
		}
	}

	@Test
	void toldNotToAddTheMetadataTableTheRegistryRunsWithoutItAfterOneWarning() {
		String table = goTable("never", now() - 10);
		try {
			JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(this.jdbcTemplate)
				.tableName(table)
				.createMetadataTable(false)
				.build();
			assertRunsWithoutMetadataAfterOneWarning(registry, table, "the registry was told not to add it");
		}
		finally {
			TestDatabase.dropRegistryTables(this.admin, table);
		}
	}

	@Test
	void whereTheDatabaseRefusesToCreateTheMetadataTableTheRegistryRunsWithoutItAfterOneWarning() {
		String table = goTable("refused", now() - 10);
		String user = table + "_u";
		this.jdbcTemplate.batchUpdate(createUserWithoutCreateRights(user, table));
		try (HikariDataSource withoutCreateRights = database().dataSource(2, user, PASSWORD)) {
			JdbcTemplateRegistry registry = JdbcTemplateRegistry.builder(new JdbcTemplate(withoutCreateRights))
				.tableName(table)
				.build();
			assertRunsWithoutMetadataAfterOneWarning(registry, table, "the registry could not add it");
		}
		finally {
			this.jdbcTemplate.batchUpdate(dropUser(user, table));
			TestDatabase.dropRegistryTables(this.admin, table);
		}
	}

	private void assertRunsWithoutMetadataAfterOneWarning(JdbcTemplateRegistry registry, String table, String why) {
		// Blocks of 10 without prefetching: every tenth ID is a reservation of its own.
		try (CridNode node = CridNode.builder(registry).blockSize(10).threshold(0).build();
				CridNode another = CridNode.builder(registry).blockSize(10).threshold(0).build()) {
			long id = node.nextId();
			assertContinuesWhereGoLeftOff(table, id);
			for (int i = 0; i < 50; i++) {
				node.nextId();
				another.nextId();
			}
		}
		registry.checkLayout(CridLayout.of(CridLayout.DEFAULT_EPOCH, 32, 31));
		assertThat(registry.verifySchema()).as("the metadata table is there").isFalse();
		assertThatExceptionOfType(RegistryException.class).isThrownBy(() -> registry.evictBefore(1))
			.withMessageContaining("no metadata table")
			.satisfies((ex) -> assertThat(ex.isRetryable()).isFalse());
		assertThat(this.warnings).as("warnings")
			.singleElement()
			.satisfies((warning) -> assertThat(warning.getMessage()).contains(
					"'" + table + "' has no metadata table '" + table + "_meta'", why, "layout", "evicted",
					"JdbcTemplateRegistry.ensureSchema()"));
	}

	/**
	 * Asserts that the ID continues its second where the Go nodes left off, and that the
	 * table holds its reservation too.
	 */
	private void assertContinuesWhereGoLeftOff(String table, long id) {
		// The default layout: 32 sequence bits below the second.
		long second = id >>> 32;
		long sequence = id & 0xFFFF_FFFFL;
		assertThat(sequence).as("the sequence in second %d, where Go reserved up to %d", second, GO_NEXT_SEQUENCE)
			.isGreaterThanOrEqualTo(GO_NEXT_SEQUENCE);
		assertThat(
				this.jdbcTemplate.queryForObject("SELECT next_seq FROM " + table + " WHERE ts = ?", Long.class, second))
			.isGreaterThan(sequence);
	}

	/**
	 * Creates an allocation table as the Go crid does, without the metadata table, with
	 * rows for two minutes of seconds from {@code firstSecond} on, each reserved up to
	 * {@link #GO_NEXT_SEQUENCE}: more than a test takes.
	 */
	private String goTable(String purpose, long firstSecond) {
		String table = ("crid_" + getClass().getSimpleName().replace("IntegrationTest", "") + "_" + purpose + "_"
				+ ProcessHandle.current().pid())
			.toLowerCase();
		this.jdbcTemplate.execute("CREATE TABLE " + table + " (ts BIGINT PRIMARY KEY, next_seq BIGINT NOT NULL)");
		for (long second = firstSecond; second < firstSecond + 120; second++) {
			this.jdbcTemplate.update("INSERT INTO " + table + " (ts, next_seq) VALUES (?, ?)", second,
					GO_NEXT_SEQUENCE);
		}
		return table;
	}

	private static long now() {
		return CridLayout.DEFAULT.timestampAt(Instant.now());
	}

}

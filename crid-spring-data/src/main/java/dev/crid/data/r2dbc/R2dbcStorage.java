package dev.crid.data.r2dbc;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.R2dbcDataIntegrityViolationException;
import io.r2dbc.spi.R2dbcException;
import io.r2dbc.spi.R2dbcRollbackException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.crid.CridLayout;
import dev.crid.LayoutMismatchException;
import dev.crid.Registry;
import dev.crid.RegistryException;

import org.jspecify.annotations.Nullable;

/**
 * Does the R2DBC registry's database work, each operation on a connection of its own from
 * the connection factory and within the query timeout from asking for the connection to
 * the commit: reservations, retried where a retry is safe; the layout check and evictions
 * on the metadata table; schema checks and creation; and the translation of every failure
 * into a {@link RegistryException} that names its root cause. It blocks the calling
 * thread, and refuses to on a non-blocking one.
 */
final class R2dbcStorage {

	private static final Log logger = LogFactory.getLog(R2dbcRegistry.class);

	private static final int MAX_ATTEMPTS = 20;

	private static final long MAX_BACKOFF_MILLIS = 50;

	/**
	 * Seconds of rows one eviction statement deletes at most, so no statement holds locks
	 * for long.
	 */
	private static final long SECONDS_PER_DELETE = 3_600;

	/** SQL states that mean "no such table", as the JDBC registry knows them. */
	private static final Set<String> MISSING_TABLE_STATES = Set.of("42P01", "42S02", "42S03", "42S04", "42X05",
			"S0002");

	/** How long closing a connection may take before it is left to the driver. */
	private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(1);

	private final ConnectionFactory connectionFactory;

	private final R2dbcDialect dialect;

	private final String allocations;

	private final String meta;

	private final Duration queryTimeout;

	private final AtomicBoolean durabilityChecked = new AtomicBoolean();

	private volatile boolean metadataReady;

	private volatile @Nullable CridLayout checkedLayout;

	R2dbcStorage(ConnectionFactory connectionFactory, R2dbcDialect dialect, String tableName, Duration queryTimeout) {
		this.connectionFactory = connectionFactory;
		this.dialect = dialect;
		this.allocations = tableName;
		this.meta = tableName + R2dbcRegistry.META_SUFFIX;
		this.queryTimeout = queryTimeout;
	}

	R2dbcDialect dialect() {
		return this.dialect;
	}

	@Nullable CridLayout checkedLayout() {
		return this.checkedLayout;
	}

	Registry.Reservation reserve(long timestamp, long blockSize) {
		return call("reserve " + blockSize + " sequence numbers of timestamp " + timestamp + " in table '"
				+ this.allocations + "'", (statements) -> {
					prepareMetadata(statements);
					checkDurability(statements);
					Registry.Reservation reservation = allocate(statements, timestamp, blockSize);
					if (reservation == null) {
						// The row may have been deleted by hand since: add it again, and
						// try once more.
						this.metadataReady = false;
						prepareMetadata(statements);
						reservation = allocate(statements, timestamp, blockSize);
					}
					if (reservation == null) {
						Long watermark = statements.number("SELECT evicted_before FROM " + this.meta + " WHERE id = 1");
						throw new RegistryException("Timestamp " + timestamp + " is older than the seconds the crid "
								+ "registry table '" + this.allocations + "' still holds: every second before "
								+ watermark
								+ " was evicted, and the registry refuses to hand out their numbers again. The node's clock "
								+ "is behind the others' by more than the table's retention", null, false);
					}
					return reservation;
				});
	}

	private Registry.@Nullable Reservation allocate(R2dbcStatements statements, long timestamp, long blockSize) {
		String sql = this.dialect.reserveSql(this.allocations, this.meta);
		Object[] parameters = this.dialect.reserveParameters(timestamp, blockSize).toArray();
		for (int attempt = 1;; attempt++) {
			try {
				if (!this.dialect.inTransaction()) {
					Object[] row = statements.firstRow(sql, parameters);
					return (row != null) ? this.dialect.reservation(row, blockSize) : null;
				}
				statements.begin();
				try {
					Registry.Reservation reservation = null;
					if (lockWatermarkAllowing(statements, timestamp)) {
						Object[] row = statements.firstRow(sql, parameters);
						reservation = (row != null) ? this.dialect.reservation(row, blockSize) : null;
					}
					statements.commit();
					return reservation;
				}
				catch (RuntimeException ex) {
					statements.rollback(ex);
					throw ex;
				}
			}
			catch (R2dbcException ex) {
				if (attempt >= MAX_ATTEMPTS || !isRetryable(ex) || statements.pastDeadline()) {
					throw ex;
				}
				backOff(attempt, ex);
			}
		}
	}

	/**
	 * Locks the metadata row against evictions until the transaction ends (an
	 * {@code UPDATE} that changes nothing takes the row's write lock) and returns whether
	 * the timestamp may be reserved in.
	 */
	private boolean lockWatermarkAllowing(R2dbcStatements statements, long timestamp) {
		if (statements.update("UPDATE " + this.meta + " SET evicted_before = evicted_before WHERE id = 1") != 1) {
			return false;
		}
		Long watermark = statements.number("SELECT evicted_before FROM " + this.meta + " WHERE id = 1");
		return watermark != null && timestamp >= watermark;
	}

	private static boolean isRetryable(R2dbcException ex) {
		String state = ex.getSqlState();
		return ex instanceof R2dbcDataIntegrityViolationException || ex instanceof R2dbcRollbackException
				|| (state != null && (state.startsWith("23") || state.startsWith("40")));
	}

	/**
	 * Waits a random moment, so that transactions that collided do not collide again in
	 * lockstep.
	 */
	private static void backOff(int attempt, R2dbcException failure) {
		try {
			Thread.sleep(ThreadLocalRandom.current().nextLong(1, Math.min(MAX_BACKOFF_MILLIS, 1L << attempt) + 1));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw failure;
		}
	}

	void checkLayout(CridLayout layout) {
		if (layout.equals(this.checkedLayout)) {
			return;
		}
		CridLayout recorded = call("check the layout of the crid registry table '" + this.allocations + "'",
				(statements) -> {
					prepareMetadata(statements);
					statements.update(
							"UPDATE " + this.meta + " SET epoch_seconds = ?, timestamp_bits = ?, "
									+ "sequence_bits = ? WHERE id = 1 AND epoch_seconds IS NULL",
							layout.epoch().getEpochSecond(), layout.timestampBits(), layout.sequenceBits());
					Object[] row = statements.firstRow(
							"SELECT epoch_seconds, timestamp_bits, sequence_bits FROM " + this.meta + " WHERE id = 1");
					if (row == null) {
						throw new RegistryException("The row of " + this.meta + " is missing");
					}
					return CridLayout.of(Instant.ofEpochSecond(R2dbcDialect.number(row[0]).longValue()),
							R2dbcDialect.number(row[1]).intValue(), R2dbcDialect.number(row[2]).intValue());
				});
		if (!recorded.equals(layout)) {
			throw new LayoutMismatchException("table '" + this.allocations + "'", recorded, layout);
		}
		this.checkedLayout = layout;
	}

	/**
	 * Raises the eviction watermark to {@code before} (once that commits, no reservation
	 * below it can), then deletes the rows below it, a bounded range of seconds per
	 * statement, until none is left or {@code budgetNanos} have passed.
	 * @return the rows deleted, or the negated count when rows below the watermark are
	 * left
	 */
	long evict(long before, long budgetNanos) {
		long budgetEnd = System.nanoTime() + budgetNanos;
		return call("evict the seconds before " + before + " from the crid registry table '" + this.allocations + "'",
				(statements) -> {
					prepareMetadata(statements);
					statements.update(
							"UPDATE " + this.meta + " SET evicted_before = ? WHERE id = 1 AND evicted_before < ?",
							before, before);
					long deleted = 0;
					while (true) {
						Long oldest = statements.number("SELECT MIN(ts) FROM " + this.allocations + " WHERE ts < ?",
								before);
						if (oldest == null) {
							return deleted;
						}
						if (System.nanoTime() - budgetEnd > 0) {
							return -deleted - 1;
						}
						long upTo = (oldest > before - SECONDS_PER_DELETE) ? before : oldest + SECONDS_PER_DELETE;
						deleted += statements.update("DELETE FROM " + this.allocations + " WHERE ts < ?", upTo);
					}
				});
	}

	/**
	 * Adds the metadata row unless it is there: the lock on it is what orders
	 * reservations and evictions.
	 */
	private void prepareMetadata(R2dbcStatements statements) {
		if (this.metadataReady) {
			return;
		}
		String select = "SELECT evicted_before FROM " + this.meta + " WHERE id = 1";
		if (statements.firstRow(select) == null) {
			try {
				statements.update("INSERT INTO " + this.meta + " (id, evicted_before) VALUES (1, 0)");
			}
			catch (R2dbcException ex) {
				// Another node added it meanwhile.
				if (statements.firstRow(select) == null) {
					throw ex;
				}
			}
		}
		this.metadataReady = true;
	}

	private void checkDurability(R2dbcStatements statements) {
		String sql = this.dialect.durabilitySql();
		if (sql == null || !this.durabilityChecked.compareAndSet(false, true)) {
			return;
		}
		try {
			Long setting = statements.number(sql);
			if (setting != null && setting != 1) {
				logger.warn("crid registry table '" + this.allocations + "': innodb_flush_log_at_trx_commit is "
						+ setting + ": a crash of the database server may lose the last second or so of committed "
						+ "allocations, and the registry would then hand those blocks out again (duplicate IDs); set it to 1");
			}
		}
		catch (RuntimeException ex) {
			logger.debug("Could not check the durability settings of the crid registry's database", ex);
		}
	}

	void ensureSchema() {
		run("create the crid registry tables '" + this.allocations + "' and '" + this.meta + "'", (statements) -> {
			if (missingTable(statements) == null) {
				return null;
			}
			statements.run(this.dialect.schema(this.allocations, this.meta));
			logger.info("Created the crid registry tables '" + this.allocations + "' and '" + this.meta + "'");
			return null;
		});
	}

	void verifySchema() {
		run("read the crid registry tables '" + this.allocations + "' and '" + this.meta + "'", (statements) -> {
			statements.firstRow("SELECT * FROM " + this.allocations + " WHERE 1 = 0");
			statements.firstRow("SELECT * FROM " + this.meta + " WHERE 1 = 0");
			return null;
		});
	}

	/**
	 * Returns the name of a registry table that does not exist, or {@code null} when both
	 * do.
	 */
	private @Nullable String missingTable(R2dbcStatements statements) {
		for (String table : List.of(this.allocations, this.meta)) {
			try {
				statements.firstRow("SELECT * FROM " + table + " WHERE 1 = 0");
			}
			catch (R2dbcException ex) {
				if (isMissingTable(ex)) {
					return table;
				}
				throw ex;
			}
		}
		return null;
	}

	private static boolean isMissingTable(Throwable failure) {
		for (Throwable current = failure; current != null; current = current.getCause()) {
			if (current instanceof R2dbcException r2dbc && r2dbc.getSqlState() != null
					&& MISSING_TABLE_STATES.contains(r2dbc.getSqlState())) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Runs database work on a connection of its own within the query timeout, turning
	 * every failure into a RegistryException.
	 */
	/** Runs work that always returns a value, as {@link #run} does. */
	private <T> T call(String task, Work<T> work) {
		return java.util.Objects.requireNonNull(run(task, work), () -> "No result from the work to " + task);
	}

	private <T> @Nullable T run(String task, Work<T> work) {
		if (Schedulers.isInNonBlockingThread()) {
			throw new RegistryException(
					"Could not " + task + ": the R2DBC registry waits for the database, and "
							+ "was called on the non-blocking thread '" + Thread.currentThread().getName()
							+ "', which must " + "never wait; a CridNode calls its registry on a thread of its own",
					null, false);
		}
		long deadline = System.nanoTime() + this.queryTimeout.toNanos();
		Connection connection = null;
		try {
			connection = R2dbcStatements.await(this.connectionFactory.create(), deadline);
			return work.run(new R2dbcStatements(java.util.Objects.requireNonNull(connection, "no connection"),
					this.dialect, deadline));
		}
		catch (RegistryException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw failure(task, ex);
		}
		finally {
			if (connection != null) {
				close(connection);
			}
		}
	}

	private static void close(Connection connection) {
		try {
			Mono.from(connection.close()).block(CLOSE_TIMEOUT);
		}
		catch (RuntimeException ex) {
			logger.debug("Could not close an R2DBC connection of the crid registry", ex);
		}
	}

	private RegistryException failure(String task, RuntimeException ex) {
		if (isMissingTable(ex)) {
			return new RegistryException("The crid registry table '" + this.allocations + "' or '" + this.meta
					+ "' does not exist: create them with R2dbcRegistry.ensureSchema() (in Spring Boot, "
					+ "crid.registry.r2dbc.initialize-schema=always), or run R2dbcRegistry.schema() from Flyway or "
					+ "Liquibase; the database said: " + ex.getMessage(), ex, false);
		}
		if (ex instanceof R2dbcStatements.DeadlineExceededException) {
			return new RegistryException("Could not " + task + " within the query timeout " + this.queryTimeout, ex);
		}
		return new RegistryException(
				"Could not " + task + " (query timeout " + this.queryTimeout + "): " + ex.getMessage() + rootCause(ex),
				ex);
	}

	/**
	 * Names the innermost cause, which is where drivers keep "connection refused" and the
	 * like.
	 */
	private static String rootCause(Throwable failure) {
		Throwable root = failure;
		for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 20; depth++) {
			root = root.getCause();
		}
		return (root != failure) ? "; root cause: " + root : "";
	}

	/**
	 * Database work on a connection of its own.
	 *
	 * @param <T> the result type
	 */
	@FunctionalInterface
	interface Work<T> {

		@Nullable T run(R2dbcStatements statements);

	}

}

package dev.crid.sql;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

/**
 * What a database registry does in its tables, the same on JDBC and R2DBC: reservations,
 * tried again where the database rolled back a conflict; the layout record and the
 * eviction watermark in the metadata table, which it adds beside a table the Go crid made
 * where it may (else it runs without, after one warning); evictions by the retention;
 * creating and checking the tables. Each operation runs on a session of its own from the
 * registry module's {@link SqlSessions}, which turns every failure into the registry's
 * exception; the statements are those of the session's {@link SqlDialect}, except on a
 * MariaDB Galera cluster member, where they are the MYSQL dialect's
 * ({@link StatementChoice}).
 *
 * <p>
 * Thread-safe.
 *
 * @param <E> the exception the registry module's driver throws
 */
public final class RegistryStore<E extends Exception> {

	private static final int MAX_ATTEMPTS = 20;

	private static final long MAX_BACKOFF_MILLIS = 50;

	private final SqlSessions<E> sessions;

	private final RegistryTables tables;

	private final RegistryMetadata metadata;

	private final RegistrySchema schema;

	private final System.Logger logger;

	private final String registryName;

	private final @Nullable EvictionSchedule eviction;

	private final StatementChoice statements;

	private final AtomicBoolean durabilityChecked = new AtomicBoolean();

	/** The layout the table was found to serve, once checked. */
	private volatile @Nullable TableLayout confirmedLayout;

	/**
	 * Creates the store of a registry.
	 * @param sessions where the registry module runs the SQL
	 * @param tables the registry's tables
	 * @param retention how long rows are kept, or {@code null} to keep every row
	 * @param createMetadataTable whether the first use may add a missing metadata table
	 * beside an existing allocation table
	 * @param logger where warnings and notes go: the registry's logger
	 * @param registryName the registry's class, for messages that tell what to call
	 */
	public RegistryStore(SqlSessions<E> sessions, RegistryTables tables, @Nullable Duration retention,
			boolean createMetadataTable, System.Logger logger, String registryName) {
		this.sessions = sessions;
		this.tables = tables;
		this.metadata = new RegistryMetadata(tables);
		this.schema = new RegistrySchema(tables, this.metadata, createMetadataTable, logger, registryName);
		this.statements = new StatementChoice(tables.allocations(), logger);
		this.logger = logger;
		this.registryName = registryName;
		this.eviction = (retention != null) ? new EvictionSchedule(this::evict, tables.allocations(), retention, logger)
				: null;
	}

	/**
	 * Reserves {@code blockSize} sequence numbers of second {@code timestamp}, committed
	 * before it returns, and runs an eviction afterwards when one is due.
	 * @param timestamp seconds since the layout's epoch, not negative
	 * @param blockSize how many sequence numbers to reserve, at least 1
	 * @return the block's start, and the database's clock where the dialect reads it
	 * @throws IllegalArgumentException when an argument is out of range
	 * @throws RuntimeException the registry's exception on any failure, or (not
	 * retryable) when the second was evicted
	 */
	public SqlReservation reserve(long timestamp, long blockSize) {
		requireNotNegative("timestamp", timestamp);
		if (blockSize < 1) {
			throw new IllegalArgumentException("blockSize is " + blockSize + " but must be at least 1");
		}
		SqlReservation reservation = call("reserve " + blockSize + " sequence numbers of timestamp " + timestamp
				+ " in table '" + this.tables.allocations() + "'", (session) -> {
					boolean guarded = this.schema.prepareMetadata(session);
					checkDurability(session);
					SqlReservation reserved = tryReserve(session, timestamp, blockSize, guarded);
					for (int attempt = 1; reserved == null; attempt++) {
						Long watermark = this.metadata.watermark(session);
						if (watermark != null && timestamp < watermark) {
							throw evicted(timestamp, watermark);
						}
						// The guard found no metadata row: deleted by hand since, or
						// added by another instance in a transaction not yet visible.
						// Add it again, and try again.
						if (attempt >= MAX_ATTEMPTS || session.pastDeadline() || !backedOff(attempt)) {
							throw new IllegalStateException("the metadata row of the crid registry table '"
									+ this.tables.allocations() + "' could not be read, " + attempt + " times");
						}
						this.schema.forgetMetadataRow();
						guarded = this.schema.prepareMetadata(session);
						reserved = tryReserve(session, timestamp, blockSize, guarded);
					}
					return reserved;
				});
		if (this.eviction != null && !this.schema.withoutMetadata()) {
			this.eviction.afterReservation(evictionReference(timestamp, reservation.databaseTime()));
		}
		return reservation;
	}

	private @Nullable SqlReservation tryReserve(SqlSession<E> session, long timestamp, long blockSize, boolean guarded)
			throws E {
		Statements statements = this.statements.of(session).statements();
		boolean transaction = !statements.autoCommit();
		for (int attempt = 1;; attempt++) {
			if (transaction) {
				session.begin();
			}
			try {
				SqlReservation reservation = statements.reserve(session, this.tables, timestamp, blockSize, guarded);
				if (transaction) {
					session.commit();
				}
				return reservation;
			}
			catch (Exception ex) {
				if (transaction) {
					session.rollback(ex);
				}
				if (attempt >= MAX_ATTEMPTS || !session.isConflict(ex) || session.pastDeadline()
						|| !backedOff(attempt)) {
					throw ex;
				}
			}
		}
	}

	/**
	 * Waits a random moment before a retry, so that transactions that collided (on a new
	 * row, or in a deadlock) do not collide again in lockstep; returns {@code false},
	 * with the thread's interrupt status set again, when interrupted.
	 */
	private static boolean backedOff(int attempt) {
		try {
			Thread.sleep(ThreadLocalRandom.current().nextLong(1, Math.min(MAX_BACKOFF_MILLIS, 1L << attempt) + 1));
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private RefusalException evicted(long timestamp, long watermark) {
		return new RefusalException("Timestamp " + timestamp + " is older than the seconds the crid registry table '"
				+ this.tables.allocations() + "' still holds: every second before " + watermark + " was evicted, and "
				+ "the registry refuses to hand out their numbers again. The node's clock is behind the others' by "
				+ "more than the table's retention");
	}

	/**
	 * The second an eviction counts the retention back from: the one just reserved, or
	 * the database's own second when the database tells its clock and it is earlier, so
	 * that a node whose clock runs ahead never evicts seconds that the other nodes still
	 * reserve in.
	 */
	private long evictionReference(long timestamp, @Nullable Instant databaseTime) {
		TableLayout layout = this.confirmedLayout;
		if (databaseTime == null || layout == null) {
			return timestamp;
		}
		long databaseSecond = layout.secondAt(databaseTime);
		// The database's clock is outside the layout's range: evict nothing by it.
		return (databaseSecond < 0) ? 0 : Math.min(timestamp, databaseSecond);
	}

	private void checkDurability(SqlSession<E> session) {
		if (!this.durabilityChecked.compareAndSet(false, true)) {
			return;
		}
		try {
			String warning = session.dialect().statements().durabilityWarning(session);
			if (warning != null) {
				this.logger.log(Level.WARNING, "crid registry table '" + this.tables.allocations() + "': " + warning);
			}
		}
		catch (Exception ex) {
			this.logger.log(Level.DEBUG, "Could not check the durability settings of the crid registry's database", ex);
		}
	}

	/**
	 * Records the layout in the metadata table if none is recorded yet, and returns the
	 * one recorded there. Once a layout is found recorded, asking with it again does not
	 * touch the database.
	 * @param layout the layout of the node about to use the registry
	 * @return the layout the table was first used with, or {@code null} when the registry
	 * runs without the metadata table, where none is recorded
	 * @throws RuntimeException the registry's exception on any failure
	 */
	public @Nullable TableLayout claimLayout(TableLayout layout) {
		if (layout.equals(this.confirmedLayout)) {
			return layout;
		}
		TableLayout recorded = run("check the layout of the crid registry table '" + this.tables.allocations() + "'",
				(session) -> this.schema.prepareMetadata(session) ? this.metadata.claimLayout(session, layout) : null);
		if (recorded == null || recorded.equals(layout)) {
			this.confirmedLayout = layout;
		}
		return recorded;
	}

	/**
	 * Evicts every second before {@code timestamp}: raises the watermark below which
	 * reservations are refused, then deletes those rows.
	 * @param timestamp seconds since the layout's epoch: every second before it is
	 * evicted
	 * @return the rows deleted
	 * @throws IllegalArgumentException when the timestamp is negative
	 * @throws RuntimeException the registry's exception on any failure, or (not
	 * retryable) when the registry runs without the metadata table, which holds the
	 * watermark
	 */
	public long evictBefore(long timestamp) {
		requireNotNegative("timestamp", timestamp);
		return evict(timestamp, Long.MAX_VALUE).rows();
	}

	/**
	 * Raises the eviction watermark to {@code before}, then deletes the rows below it for
	 * at most {@code budgetNanos}.
	 */
	private RegistryMetadata.Deleted evict(long before, long budgetNanos) {
		long deadline = System.nanoTime() + budgetNanos;
		return call("evict the seconds before " + before + " from the crid registry table '" + this.tables.allocations()
				+ "'", (session) -> {
					if (!this.schema.prepareMetadata(session)) {
						throw new RefusalException("Cannot evict from the crid registry table '"
								+ this.tables.allocations() + "': it has no metadata table '" + this.tables.meta()
								+ "' to keep the eviction watermark in, without which a node whose clock lags "
								+ "behind could reserve an evicted second again; add it with " + this.registryName
								+ ".ensureSchema()");
					}
					this.metadata.raiseWatermark(session, before);
					return this.metadata.deleteBefore(session, before, deadline);
				});
	}

	/**
	 * Creates the allocation and metadata tables with the dialect's schema script, unless
	 * they exist: beside a table the Go crid made, it adds the metadata table and keeps
	 * the rows. Safe to call from several processes at once.
	 * @throws RuntimeException the registry's exception on any failure
	 */
	public void ensureSchema() {
		run("create the crid registry tables '" + this.tables.allocations() + "' and '" + this.tables.meta() + "'",
				(session) -> {
					this.schema.ensureSchema(session);
					return null;
				});
	}

	/**
	 * Checks that the allocation table exists and can be read, and tells whether the
	 * metadata table beside it does; reserves nothing.
	 * @return {@code true} when both tables exist; {@code false} when the metadata table
	 * is missing
	 * @throws RuntimeException the registry's exception on any failure, a missing
	 * allocation table among them
	 */
	public boolean verifySchema() {
		return call(
				"read the crid registry tables '" + this.tables.allocations() + "' and '" + this.tables.meta() + "'",
				this.schema::verifySchema);
	}

	/**
	 * Returns the name of a registry table that does not exist, for a message about a
	 * missing table.
	 * @param <E> the exception the session's driver throws
	 * @param session a session of the registry's database
	 * @param tables the registry's tables
	 * @return the allocation table when it is missing, else the metadata table when it
	 * is, else {@code null}
	 * @throws E when the database fails
	 */
	public static <E extends Exception> @Nullable String missingTable(SqlSession<E> session, RegistryTables tables)
			throws E {
		return RegistrySchema.missingTable(session, tables);
	}

	/**
	 * Tells whether the registry runs without the metadata table (see
	 * {@link #RegistryStore}): no layout record and no evictions.
	 * @return whether it does
	 */
	public boolean withoutMetadata() {
		return this.schema.withoutMetadata();
	}

	/**
	 * Returns the dialect whose statements reserve: the sessions' own, or on a MariaDB
	 * Galera member the MYSQL one (see {@link StatementChoice}); known once an operation
	 * has run, and never touching the database.
	 * @return the dialect, or {@code null} before the first operation
	 */
	public @Nullable SqlDialect knownStatements() {
		return this.statements.known();
	}

	private <T> T call(String task, SqlSessions.Work<T, E> work) {
		return Objects.requireNonNull(run(task, work), () -> "No result from the work to " + task);
	}

	/**
	 * Runs work on a session of its own, once the statements to reserve with are chosen
	 * on it.
	 */
	private <T> @Nullable T run(String task, SqlSessions.Work<T, E> work) {
		return this.sessions.run(task, (session) -> {
			this.statements.of(session);
			return work.run(session);
		});
	}

	private static void requireNotNegative(String name, long value) {
		if (value < 0) {
			throw new IllegalArgumentException(name + " is " + value + " but must not be negative");
		}
	}

}

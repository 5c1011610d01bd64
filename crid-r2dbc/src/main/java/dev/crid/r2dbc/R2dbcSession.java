package dev.crid.r2dbc;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.R2dbcDataIntegrityViolationException;
import io.r2dbc.spi.R2dbcException;
import io.r2dbc.spi.R2dbcRollbackException;
import io.r2dbc.spi.Result;
import io.r2dbc.spi.Row;
import io.r2dbc.spi.RowMetadata;
import io.r2dbc.spi.Statement;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import dev.crid.sql.SqlDialect;
import dev.crid.sql.SqlSession;
import dev.crid.sql.SqlStates;

/**
 * The shared SQL's statements on one R2DBC connection, each awaited on the calling thread
 * until the operation's deadline at most: the registry SPI is blocking, and a node calls
 * it on its own background thread. A statement that outlasts the deadline is cancelled
 * and fails with a {@link DeadlineExceededException}.
 */
final class R2dbcSession implements SqlSession<RuntimeException> {

	/**
	 * How long a rollback may take beyond the deadline, so that one that ends a
	 * transaction which ran out of time is still sent rather than leaving the transaction
	 * open on a pooled connection.
	 */
	private static final Duration ROLLBACK_GRACE = Duration.ofSeconds(1);

	private final Connection connection;

	private final SqlDialect dialect;

	/** The operation's deadline, by {@link System#nanoTime()}. */
	private final long deadline;

	R2dbcSession(Connection connection, SqlDialect dialect, long deadline) {
		this.connection = connection;
		this.dialect = dialect;
		this.deadline = deadline;
	}

	@Override
	public SqlDialect dialect() {
		return this.dialect;
	}

	@Override
	public @Nullable Object @Nullable [] queryRow(String sql, long... parameters) {
		Mono<List<@Nullable Object[]>> rows = Flux.from(statement(sql, parameters).execute())
			.concatMap((result) -> result.map(R2dbcSession::values))
			.collectList();
		List<@Nullable Object[]> all = Objects.requireNonNull(await(rows, this.deadline));
		return all.isEmpty() ? null : all.get(0);
	}

	private static @Nullable Object[] values(Row row, RowMetadata metadata) {
		@Nullable Object[] values = new Object[metadata.getColumnMetadatas().size()];
		for (int i = 0; i < values.length; i++) {
			values[i] = row.get(i);
		}
		return values;
	}

	@Override
	public long update(String sql, long... parameters) {
		Mono<Long> updated = Flux.from(statement(sql, parameters).execute())
			.concatMap(Result::getRowsUpdated)
			.reduce(0L, Long::sum);
		return Objects.requireNonNull(await(updated, this.deadline));
	}

	private Statement statement(String sql, long[] parameters) {
		Statement statement = this.connection.createStatement(R2dbcDatabases.markers(this.dialect, sql));
		for (int i = 0; i < parameters.length; i++) {
			statement.bind(i, parameters[i]);
		}
		return statement;
	}

	@Override
	public void begin() {
		await(Mono.from(this.connection.beginTransaction()), this.deadline);
	}

	@Override
	public void commit() {
		await(Mono.from(this.connection.commitTransaction()), this.deadline);
	}

	@Override
	public void rollback(Exception failure) {
		try {
			await(Mono.from(this.connection.rollbackTransaction()),
					Math.max(this.deadline, System.nanoTime() + ROLLBACK_GRACE.toNanos()));
		}
		catch (RuntimeException ex) {
			failure.addSuppressed(ex);
		}
	}

	@Override
	public boolean isMissingTable(Exception failure) {
		return isMissingTableFailure(failure);
	}

	/** Whether the failure, or one of its causes, says a table does not exist. */
	static boolean isMissingTableFailure(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof R2dbcException r2dbc && SqlStates.isMissingTable(r2dbc.getSqlState())) {
				return true;
			}
		}
		return false;
	}

	@Override
	public boolean isConflict(Exception failure) {
		return failure instanceof R2dbcDataIntegrityViolationException || failure instanceof R2dbcRollbackException
				|| (failure instanceof R2dbcException r2dbc && SqlStates.isConflict(r2dbc.getSqlState()));
	}

	@Override
	public boolean pastDeadline() {
		return System.nanoTime() - this.deadline >= 0;
	}

	/**
	 * Waits for the publisher's one value, or its completion, until the deadline; then
	 * cancels it and fails.
	 * @throws DeadlineExceededException when the deadline passes first
	 */
	static <T> @Nullable T await(Publisher<T> publisher, long deadline) {
		long left = deadline - System.nanoTime();
		if (left <= 0) {
			throw new DeadlineExceededException();
		}
		return Mono.from(publisher).timeout(Duration.ofNanos(left), Mono.error(DeadlineExceededException::new)).block();
	}

	/** The operation ran out of time. */
	static final class DeadlineExceededException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		DeadlineExceededException() {
			super("the operation did not finish in time", null, false, false);
		}

	}

}

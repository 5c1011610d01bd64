package dev.crid.data.r2dbc;

import java.time.Duration;
import java.util.List;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.Result;
import io.r2dbc.spi.Statement;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Runs statements on one R2DBC connection and waits for them, each wait bounded by what
 * is left of the operation's deadline. Blocking is the point: the registry SPI is
 * blocking, and a node calls it on its own background thread. A statement that outlasts
 * the deadline is cancelled.
 */
final class R2dbcStatements {

	private final Connection connection;

	private final R2dbcDialect dialect;

	/** The operation's deadline, by {@link System#nanoTime()}. */
	private final long deadline;

	R2dbcStatements(Connection connection, R2dbcDialect dialect, long deadline) {
		this.connection = connection;
		this.dialect = dialect;
		this.deadline = deadline;
	}

	/**
	 * Returns the first row of a query as its column values, or {@code null} when it
	 * returns no row.
	 */
	Object @Nullable [] firstRow(String sql, Object... parameters) {
		Flux<Object[]> rows = Flux.from(statement(sql, parameters).execute())
			.concatMap((result) -> result.map((row, metadata) -> {
				Object[] values = new Object[metadata.getColumnMetadatas().size()];
				for (int i = 0; i < values.length; i++) {
					values[i] = row.get(i);
				}
				return values;
			}));
		return java.util.Objects.requireNonNull(await(rows.collectList())).stream().findFirst().orElse(null);
	}

	/**
	 * Returns the number in the first column of the first row, or {@code null} for no row
	 * or SQL NULL.
	 */
	@Nullable Long number(String sql, Object... parameters) {
		Object[] row = firstRow(sql, parameters);
		return (row == null || row[0] == null) ? null : R2dbcDialect.number(row[0]).longValue();
	}

	/** Runs a statement that changes rows and returns how many. */
	long update(String sql, Object... parameters) {
		Long updated = await(Flux.from(statement(sql, parameters).execute())
			.concatMap(Result::getRowsUpdated)
			.reduce(0L, Long::sum));
		return (updated != null) ? updated : 0;
	}

	void begin() {
		await(Mono.from(this.connection.beginTransaction()).then(Mono.just(true)));
	}

	void commit() {
		await(Mono.from(this.connection.commitTransaction()).then(Mono.just(true)));
	}

	/** Rolls back, keeping the failure that made it necessary as the one to report. */
	void rollback(RuntimeException failure) {
		try {
			await(Mono.from(this.connection.rollbackTransaction()).then(Mono.just(true)));
		}
		catch (RuntimeException ex) {
			failure.addSuppressed(ex);
		}
	}

	/** Whether the operation's deadline has passed. */
	boolean pastDeadline() {
		return System.nanoTime() - this.deadline >= 0;
	}

	private Statement statement(String sql, Object[] parameters) {
		Statement statement = this.connection.createStatement(this.dialect.markers(sql));
		for (int i = 0; i < parameters.length; i++) {
			statement.bind(i, parameters[i]);
		}
		return statement;
	}

	<T> @Nullable T await(Publisher<T> publisher) {
		return await(publisher, this.deadline);
	}

	/**
	 * Waits for the publisher's one value until the deadline, then cancels it and fails.
	 */
	static <T> @Nullable T await(Publisher<T> publisher, long deadline) {
		long left = deadline - System.nanoTime();
		if (left <= 0) {
			throw new DeadlineExceededException();
		}
		return Mono.from(publisher).timeout(Duration.ofNanos(left), Mono.error(DeadlineExceededException::new)).block();
	}

	/** Runs the statements of a script one after another. */
	void run(List<String> statements) {
		for (String sql : statements) {
			update(sql);
		}
	}

	/** The operation ran out of time. */
	static final class DeadlineExceededException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		DeadlineExceededException() {
			super("the operation did not finish in time", null, false, false);
		}

	}

}

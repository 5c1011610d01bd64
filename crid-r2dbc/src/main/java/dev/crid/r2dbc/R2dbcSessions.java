package dev.crid.r2dbc;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.R2dbcBadGrammarException;
import io.r2dbc.spi.R2dbcException;
import io.r2dbc.spi.R2dbcPermissionDeniedException;
import io.r2dbc.spi.Wrapped;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import dev.crid.RegistryException;
import dev.crid.sql.Failures;
import dev.crid.sql.RefusalException;
import dev.crid.sql.RegistryTables;
import dev.crid.sql.SqlDialect;
import dev.crid.sql.SqlSessions;

/**
 * Where the R2DBC registry runs the shared SQL: each operation on a connection of its own
 * from the connection factory (so never in a reactive transaction of the application's),
 * within the query timeout from asking for the connection to the last statement, on the
 * calling thread, which it refuses to block when that thread must never wait; every
 * failure becomes a {@link RegistryException} that names its root cause.
 */
final class R2dbcSessions implements SqlSessions<RuntimeException> {

	private static final System.Logger logger = System.getLogger(R2dbcRegistry.class.getName());

	private final ConnectionFactory connectionFactory;

	private final SqlDialect dialect;

	private final RegistryTables tables;

	private final Duration queryTimeout;

	R2dbcSessions(ConnectionFactory connectionFactory, SqlDialect dialect, RegistryTables tables,
			Duration queryTimeout) {
		this.connectionFactory = connectionFactory;
		this.dialect = dialect;
		this.tables = tables;
		this.queryTimeout = queryTimeout;
	}

	@Override
	public <T> @Nullable T run(String task, Work<T, RuntimeException> work) {
		if (Schedulers.isInNonBlockingThread()) {
			throw new RegistryException(
					"Could not " + task + ": the R2DBC registry waits for the database, and "
							+ "was called on the non-blocking thread '" + Thread.currentThread().getName()
							+ "', which must " + "never wait; a CridNode calls its registry on a thread of its own",
					null, false);
		}
		long deadline = System.nanoTime() + this.queryTimeout.toNanos();
		Connection connection = null;
		boolean outOfTime = false;
		try {
			connection = R2dbcSession.await(this.connectionFactory.create(), deadline);
			return work
				.run(new R2dbcSession(Objects.requireNonNull(connection, "no connection"), this.dialect, deadline));
		}
		catch (RefusalException ex) {
			throw new RegistryException(ex.getMessage(), null, false);
		}
		catch (RuntimeException ex) {
			outOfTime = ex instanceof R2dbcSession.DeadlineExceededException;
			throw failure(task, ex);
		}
		finally {
			if (connection != null) {
				release(connection, outOfTime);
			}
		}
	}

	/**
	 * Closes the connection (returns it to its pool) without waiting: a close that hangs
	 * on a broken network must not hold the caller, and one on an interrupted thread must
	 * still happen. A connection whose statement ran out of time is closed for good
	 * first, as JDBC's network timeout aborts one, and returned to its pool only then:
	 * the statement may still be queued on it, and the pool, which drops a closed
	 * connection when it validates it, would otherwise hand it out again behind that
	 * statement.
	 */
	private static void release(Connection connection, boolean discard) {
		Mono<Void> closed = Mono.from(connection.close());
		if (discard && connection instanceof Wrapped<?> wrapped && wrapped.unwrap() instanceof Connection physical) {
			closed = Mono.from(physical.close()).onErrorResume((ex) -> Mono.empty()).then(closed);
		}
		closed.subscribe(null,
				(ex) -> logger.log(Level.DEBUG, "Could not close an R2DBC connection of the crid registry", ex));
	}

	private RegistryException failure(String task, RuntimeException ex) {
		if (R2dbcSession.isMissingTableFailure(ex)) {
			return new RegistryException(
					"The crid registry table '" + this.tables.allocations() + "' or '" + this.tables.meta()
							+ "' does not exist: create them with R2dbcRegistry.ensureSchema() (in "
							+ "Spring Boot, crid.registry.r2dbc.initialize-schema=always), or with the script '"
							+ this.dialect.schemaScript()
							+ "' on the classpath from Flyway or Liquibase; the database said: " + ex.getMessage(),
					ex, false);
		}
		if (ex instanceof R2dbcSession.DeadlineExceededException) {
			return new RegistryException("Could not " + task + " within the query timeout " + this.queryTimeout, ex);
		}
		if (interrupted(ex)) {
			return new RegistryException("Could not " + task + ": interrupted while it waited for the database", ex);
		}
		boolean retryable = isRetryable(ex);
		return new RegistryException("Could not " + task + " (query timeout " + this.queryTimeout + "): "
				+ ex.getMessage() + Failures.rootCause(ex) + (retryable ? "" : Failures.LASTING), ex, retryable);
	}

	/**
	 * Whether asking again may mend the failure: not after a syntax error, a missing
	 * privilege or a refused login, or a feature the database does not support (SQLState
	 * classes {@code 42}, {@code 28} and {@code 0A}), which every later attempt meets
	 * too. Lost and refused connections, timeouts, deadlocks and serialisation failures
	 * stay retryable.
	 */
	static boolean isRetryable(Throwable failure) {
		if (failure instanceof R2dbcBadGrammarException || failure instanceof R2dbcPermissionDeniedException) {
			return false;
		}
		String state = (failure instanceof R2dbcException r2dbc) ? r2dbc.getSqlState() : null;
		return state == null || !(state.startsWith("42") || state.startsWith("28") || state.startsWith("0A"));
	}

	private static boolean interrupted(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof InterruptedException) {
				return true;
			}
		}
		return false;
	}

}

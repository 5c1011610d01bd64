package dev.crid.r2dbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryMetadata;
import io.r2dbc.spi.R2dbcException;
import io.r2dbc.spi.Statement;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A real connection factory with failures put in front of chosen calls, as a database
 * under load answers them: statements whose SQL contains a given text, or commits, fail
 * with the given exception a given number of times before they reach the database. It
 * counts the statements it saw and the connections open.
 */
final class FaultyConnectionFactory implements ConnectionFactory {

	private final ConnectionFactory target;

	private final AtomicInteger openConnections = new AtomicInteger();

	private final AtomicInteger statementsSeen = new AtomicInteger();

	private final AtomicInteger statementFailures = new AtomicInteger();

	private final AtomicInteger commitFailures = new AtomicInteger();

	private volatile String failingSql = "\u0000";

	private volatile Supplier<R2dbcException> failure = () -> {
		throw new IllegalStateException("no failure set");
	};

	private volatile IntConsumer onStatementFailure = (count) -> {
	};

	FaultyConnectionFactory(ConnectionFactory target) {
		this.target = target;
	}

	/**
	 * Fails the next {@code times} statements whose SQL contains {@code sql} (before they
	 * reach the database), and counts every statement that contains it.
	 */
	FaultyConnectionFactory failStatements(String sql, int times, Supplier<R2dbcException> failure) {
		this.failingSql = sql;
		this.statementFailures.set(times);
		this.failure = failure;
		return this;
	}

	/**
	 * Fails the next {@code times} commits (before they reach the database, so the
	 * transaction stays open).
	 */
	FaultyConnectionFactory failCommits(int times, Supplier<R2dbcException> failure) {
		this.commitFailures.set(times);
		this.failure = failure;
		return this;
	}

	/**
	 * Runs the action on the thread that runs a failing statement, with the number of
	 * statements containing the chosen SQL seen so far (from 1).
	 */
	FaultyConnectionFactory onStatementFailure(IntConsumer action) {
		this.onStatementFailure = action;
		return this;
	}

	/** Returns how many statements containing the chosen SQL were run or failed. */
	int statementsSeen() {
		return this.statementsSeen.get();
	}

	/** Returns how many connections are open: created and not yet closed. */
	int openConnections() {
		return this.openConnections.get();
	}

	@Override
	public Publisher<? extends Connection> create() {
		return Mono.from(this.target.create()).map((connection) -> {
			this.openConnections.incrementAndGet();
			return proxy(Connection.class, connection, this::connectionCall);
		});
	}

	@Override
	public ConnectionFactoryMetadata getMetadata() {
		return this.target.getMetadata();
	}

	private Object connectionCall(Connection connection, Method method, Object[] arguments) throws Throwable {
		switch (method.getName()) {
			case "createStatement" -> {
				String sql = (String) arguments[0];
				Statement statement = connection.createStatement(sql);
				return sql.contains(this.failingSql) ? proxy(Statement.class, statement,
						(target, called, args) -> statementCall(target, called, args)) : statement;
			}
			case "commitTransaction" -> {
				if (this.commitFailures.getAndUpdate((left) -> Math.max(0, left - 1)) > 0) {
					return Mono.error(this.failure.get());
				}
			}
			case "close" -> this.openConnections.decrementAndGet();
			default -> {
			}
		}
		return invoke(connection, method, arguments);
	}

	private Object statementCall(Statement statement, Method method, Object[] arguments) throws Throwable {
		if (method.getName().equals("execute")) {
			this.statementsSeen.incrementAndGet();
			if (this.statementFailures.getAndUpdate((left) -> Math.max(0, left - 1)) > 0) {
				R2dbcException failed = this.failure.get();
				this.onStatementFailure.accept(this.statementsSeen.get());
				return Flux.error(failed);
			}
		}
		return invoke(statement, method, arguments);
	}

	private static Object invoke(Object target, Method method, Object[] arguments) throws Throwable {
		try {
			return method.invoke(target, arguments);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

	@SuppressWarnings("unchecked")
	private static <T> T proxy(Class<T> type, T target, Call<T> call) {
		InvocationHandler handler = (proxy, method, arguments) -> call.handle(target, method,
				(arguments != null) ? arguments : new Object[0]);
		return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, handler);
	}

	@FunctionalInterface
	private interface Call<T> {

		Object handle(T target, Method method, Object[] arguments) throws Throwable;

	}

}

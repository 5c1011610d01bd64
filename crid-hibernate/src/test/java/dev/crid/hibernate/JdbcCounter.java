package dev.crid.hibernate;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

/**
 * Wraps a real data source and counts what reaches the driver for INSERT statements: how
 * many rows were added to JDBC batches, how many batches were executed, and how many
 * INSERTs ran one by one. This is what tells batched inserts from single ones, whatever
 * Hibernate's logs say.
 */
final class JdbcCounter {

	private final AtomicLong batchedInserts = new AtomicLong();

	private final AtomicLong insertBatches = new AtomicLong();

	private final AtomicLong singleInserts = new AtomicLong();

	private final DataSource dataSource;

	JdbcCounter(DataSource target) {
		this.dataSource = proxy(DataSource.class, target, (method, args, result) -> {
			if (result instanceof Connection connection) {
				return wrapConnection(connection);
			}
			return result;
		});
	}

	/** Returns the counting data source to give Hibernate. */
	DataSource dataSource() {
		return this.dataSource;
	}

	void reset() {
		this.batchedInserts.set(0);
		this.insertBatches.set(0);
		this.singleInserts.set(0);
	}

	/** Rows added to a batch of INSERTs ({@code addBatch()}). */
	long batchedInserts() {
		return this.batchedInserts.get();
	}

	/** Batches of INSERTs sent to the database ({@code executeBatch()}). */
	long insertBatches() {
		return this.insertBatches.get();
	}

	/** INSERTs sent one at a time ({@code execute()} or {@code executeUpdate()}). */
	long singleInserts() {
		return this.singleInserts.get();
	}

	private Connection wrapConnection(Connection connection) {
		return proxy(Connection.class, connection, (method, args, result) -> {
			if (result instanceof PreparedStatement statement && method.getName().equals("prepareStatement")
					&& ((String) args[0]).trim().toLowerCase(Locale.ROOT).startsWith("insert")) {
				return wrapInsert(statement);
			}
			return result;
		});
	}

	private PreparedStatement wrapInsert(PreparedStatement statement) {
		return proxy(PreparedStatement.class, statement, (method, args, result) -> {
			switch (method.getName()) {
				case "addBatch" -> this.batchedInserts.incrementAndGet();
				case "executeBatch", "executeLargeBatch" -> this.insertBatches.incrementAndGet();
				case "execute", "executeUpdate", "executeLargeUpdate" -> this.singleInserts.incrementAndGet();
				default -> {
				}
			}
			return result;
		});
	}

	private static <T> T proxy(Class<T> type, T target, AfterCall afterCall) {
		InvocationHandler handler = (proxy, method, args) -> {
			Object result;
			try {
				result = method.invoke(target, args);
			}
			catch (InvocationTargetException ex) {
				throw ex.getCause();
			}
			return afterCall.apply(method, args, result);
		};
		return type.cast(Proxy.newProxyInstance(JdbcCounter.class.getClassLoader(), new Class<?>[] { type }, handler));
	}

	@FunctionalInterface
	private interface AfterCall {

		Object apply(Method method, Object[] args, Object result) throws Exception;

	}

}

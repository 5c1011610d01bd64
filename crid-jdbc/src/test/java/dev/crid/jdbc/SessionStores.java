package dev.crid.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Consumer;

import dev.crid.sql.RegistryStore;
import dev.crid.sql.RegistryTables;
import dev.crid.sql.SqlDialect;
import dev.crid.sql.SqlSessions;

import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The shared SQL run on one connection the test holds, in whatever transaction it is in,
 * with the statements of a dialect the test chooses: to see what the database or the
 * driver makes of them, without the registry's choices and translations.
 */
final class SessionStores {

	private SessionStores() {
	}

	/**
	 * Returns a store of the table (no retention) whose every operation runs on the
	 * connection; a driver's failure comes out as a {@link DriverFailure}.
	 */
	static RegistryStore<SQLException> on(Connection connection, SqlDialect statements, String table,
			boolean createMetadataTable) {
		SqlSessions<SQLException> sessions = new SqlSessions<>() {

			@Override
			public <T> T run(String task, Work<T, SQLException> work) {
				try {
					return work.run(new JdbcSession(connection, statements, 5, Long.MAX_VALUE));
				}
				catch (SQLException ex) {
					throw new DriverFailure(ex);
				}
			}

		};
		return new RegistryStore<>(sessions, new RegistryTables(table), null, createMetadataTable,
				System.getLogger(SessionStores.class.getName()), "the test");
	}

	/** Runs the operations and returns the driver's failure they end with. */
	static SQLException failureOf(RegistryStore<SQLException> store, Consumer<RegistryStore<SQLException>> operations) {
		return catchThrowableOfType(DriverFailure.class, () -> operations.accept(store)).failure;
	}

	/** A driver's failure, passed through the store. */
	static final class DriverFailure extends RuntimeException {

		private static final long serialVersionUID = 1L;

		private final transient SQLException failure;

		DriverFailure(SQLException failure) {
			super(failure);
			this.failure = failure;
		}

	}

}

package dev.crid.sql;

import java.lang.System.Logger.Level;

import org.jspecify.annotations.Nullable;

/**
 * The dialect whose statements a store reserves with, chosen once from the first session
 * it runs on: the session's own, except on a member of a MariaDB Galera cluster
 * ({@code wsrep_on} is {@code ON}), where the {@link SqlDialect#MARIADB} statements give
 * way to the {@link SqlDialect#MYSQL} ones, which MariaDB runs with the same meaning, in
 * two round trips. The choice is logged at INFO.
 *
 * <p>
 * Why: on a Galera cluster every member takes writes, and a transaction is certified
 * against the other members' at commit. When an auto-committed statement loses a
 * certification conflict, the member runs it again ({@code wsrep_retry_autocommit}, 1 by
 * default), but the rows of {@code RETURNING} have already gone to the client from the
 * run that was rolled back: a block that another member handed out too (measured: 26
 * overlapping blocks in 2,319 within 5 s, on three members). An update's outcome (the
 * affected-row count, and {@code LAST_INSERT_ID()} after it) reaches the client only once
 * the statement has committed, from the run that committed; with
 * {@code wsrep_retry_autocommit} at 0, a lost conflict is a deadlock error, which the
 * store retries. Either way the block read is the block committed. Plain MariaDB keeps
 * {@code RETURNING}, in one round trip.
 *
 * <p>
 * Thread-safe.
 */
final class StatementChoice {

	private static final String ON_GALERA = "the server is a Galera cluster member (wsrep_on), which may run an "
			+ "auto-committed statement again after a certification conflict when the rows of RETURNING have gone to "
			+ "the client already, so it reserves with the MYSQL dialect's LAST_INSERT_ID(expr) statement, whose "
			+ "outcome the server reports only once it has committed, in two round trips";

	private final String table;

	private final System.Logger logger;

	/** The dialect chosen, once a session told the server. */
	private volatile @Nullable SqlDialect chosen;

	StatementChoice(String table, System.Logger logger) {
		this.table = table;
		this.logger = logger;
	}

	/**
	 * Returns the dialect whose statements reserve, asking the session's server the first
	 * time.
	 */
	<E extends Exception> SqlDialect of(SqlSession<E> session) throws E {
		SqlDialect known = this.chosen;
		if (known != null) {
			return known;
		}
		SqlDialect own = session.dialect();
		boolean galera = own == SqlDialect.MARIADB && isGaleraMember(session);
		synchronized (this) {
			SqlDialect first = this.chosen;
			if (first != null) {
				return first;
			}
			SqlDialect choice = galera ? SqlDialect.MYSQL : own;
			this.chosen = choice;
			if (galera) {
				this.logger.log(Level.INFO, "crid registry table '" + this.table + "': " + ON_GALERA);
			}
			return choice;
		}
	}

	/**
	 * Returns the dialect whose statements reserve, or {@code null} before a session told
	 * the server; never touches the database.
	 */
	@Nullable SqlDialect known() {
		return this.chosen;
	}

	/**
	 * Whether the server replicates with Galera. A server built without it has no
	 * {@code wsrep_on} variable at all, so the query returns no row rather than failing.
	 */
	private static <E extends Exception> boolean isGaleraMember(SqlSession<E> session) throws E {
		@Nullable Object @Nullable [] row = session.queryRow("SHOW VARIABLES LIKE 'wsrep_on'");
		return row != null && "ON".equalsIgnoreCase(String.valueOf(row[1]));
	}

}

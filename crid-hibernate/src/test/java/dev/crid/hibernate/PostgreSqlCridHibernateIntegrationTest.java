package dev.crid.hibernate;

import javax.sql.DataSource;

import dev.crid.testsupport.TestDatabase;

/**
 * {@code @Crid} with plain Hibernate on PostgreSQL (tables {@code crid_hib_*}, created and dropped by the
 * test).
 */
class PostgreSqlCridHibernateIntegrationTest extends AbstractCridHibernateIntegrationTest {

	@Override
	protected DataSource createDataSource(int poolSize) {
		return TestDatabase.POSTGRESQL.dataSource(poolSize);
	}

}

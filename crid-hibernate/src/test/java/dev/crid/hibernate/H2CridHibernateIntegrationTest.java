package dev.crid.hibernate;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * {@code @Crid} with plain Hibernate on an in-memory H2 database.
 */
class H2CridHibernateIntegrationTest extends AbstractCridHibernateIntegrationTest {

	@Override
	protected DataSource createDataSource(int poolSize) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl("jdbc:h2:mem:crid_hibernate_it;DB_CLOSE_DELAY=-1");
		config.setUsername("sa");
		config.setMaximumPoolSize(poolSize);
		return new HikariDataSource(config);
	}

}

package dev.crid.data.jdbc;

import java.util.List;
import java.util.Optional;

import javax.sql.DataSource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.jdbc.core.convert.JdbcCustomConversions;
import org.springframework.data.jdbc.core.mapping.JdbcMappingContext;
import org.springframework.data.jdbc.repository.config.AbstractJdbcConfiguration;
import org.springframework.data.jdbc.repository.config.EnableJdbcRepositories;
import org.springframework.data.relational.RelationalManagedTypes;
import org.springframework.data.relational.core.mapping.NamingStrategy;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

import dev.crid.CridNode;
import dev.crid.InMemoryRegistry;
import dev.crid.data.CridIdConverters;
import dev.crid.data.CridJdbcCallback;

/**
 * A Spring Data JDBC application without Spring Boot and without Hibernate: the data source comes from
 * the test, the callback is declared as its documentation shows.
 */
@Configuration(proxyBeanMethods = false)
@EnableJdbcRepositories
class JdbcTestConfiguration extends AbstractJdbcConfiguration {

	@Bean
	NamedParameterJdbcTemplate namedParameterJdbcTemplate(DataSource dataSource) {
		return new NamedParameterJdbcTemplate(dataSource);
	}

	@Bean
	DataSourceTransactionManager transactionManager(DataSource dataSource) {
		return new DataSourceTransactionManager(dataSource);
	}

	@Bean(destroyMethod = "close")
	CridNode cridNode() {
		return CridNode.builder(new InMemoryRegistry()).build();
	}

	@Bean
	CridJdbcCallback cridJdbcCallback(CridNode cridNode, JdbcMappingContext mappingContext) {
		return new CridJdbcCallback(cridNode, mappingContext);
	}

	/** Unquoted names, so that each database folds them as it folds the tests' DDL. */
	@Override
	@Bean
	public JdbcMappingContext jdbcMappingContext(Optional<NamingStrategy> namingStrategy,
			JdbcCustomConversions customConversions, RelationalManagedTypes managedTypes) {
		JdbcMappingContext context = super.jdbcMappingContext(namingStrategy, customConversions, managedTypes);
		context.setForceQuote(false);
		return context;
	}

	@Override
	protected List<?> userConverters() {
		return CridIdConverters.all();
	}

}

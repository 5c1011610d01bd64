package dev.crid.data.jdbc;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import org.springframework.beans.factory.annotation.Qualifier;
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
 * A Spring Data JDBC application without Spring Boot and without Hibernate: the data
 * source comes from the test, the callback is declared as its documentation shows, with
 * two nodes: the default one and {@code public}.
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

	/**
	 * The node named {@code public}: 41 timestamp bits and 22 sequence bits, where the
	 * default has 31 and 32.
	 */
	@Bean(destroyMethod = "close")
	CridNode publicCridNode() {
		return CridNode.builder(new InMemoryRegistry()).timestampBits(41).sequenceBits(22).build();
	}

	@Bean
	CridJdbcCallback cridJdbcCallback(@Qualifier("cridNode") CridNode cridNode,
			@Qualifier("publicCridNode") CridNode publicCridNode, JdbcMappingContext mappingContext) {
		return new CridJdbcCallback(Map.of("default", cridNode, "public", publicCridNode), mappingContext);
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

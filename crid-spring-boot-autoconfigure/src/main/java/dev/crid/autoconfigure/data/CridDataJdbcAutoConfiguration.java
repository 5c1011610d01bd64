package dev.crid.autoconfigure.data;

import dev.crid.CridNode;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.CridNodes;
import dev.crid.data.CridJdbcCallback;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.data.jdbc.core.mapping.JdbcMappingContext;

/**
 * Auto-configuration of crid for Spring Data JDBC: a {@link CridJdbcCallback} that gives
 * aggregates with {@code @Id @dev.crid.data.Crid} their IDs from the {@link CridNode}
 * bean, and a check at start-up of every aggregate the mapping context knows. Needs no
 * Hibernate.
 */
@AutoConfiguration(after = CridAutoConfiguration.class,
		afterName = "org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration")
@ConditionalOnClass(
		name = { "dev.crid.data.CridJdbcCallback", "org.springframework.data.jdbc.core.mapping.JdbcMappingContext" })
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@ConditionalOnBean({ CridNode.class, JdbcMappingContext.class })
public final class CridDataJdbcAutoConfiguration {

	CridDataJdbcAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	CridJdbcCallback cridJdbcCallback(CridNodes cridNodes, JdbcMappingContext jdbcMappingContext) {
		return new CridJdbcCallback(cridNodes.all(), jdbcMappingContext);
	}

	@Bean
	@ConditionalOnMissingBean(name = "cridJdbcAggregateCheck")
	AggregateCheck cridJdbcAggregateCheck(CridJdbcCallback cridJdbcCallback) {
		return new AggregateCheck(cridJdbcCallback::verify, "Spring Data JDBC");
	}

}

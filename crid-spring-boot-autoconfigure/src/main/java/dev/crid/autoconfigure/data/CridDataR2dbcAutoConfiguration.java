package dev.crid.autoconfigure.data;

import dev.crid.CridNode;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.CridNodes;
import dev.crid.data.CridR2dbcCallback;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.data.r2dbc.mapping.R2dbcMappingContext;

/**
 * Auto-configuration of crid for Spring Data R2DBC: a {@link CridR2dbcCallback} that
 * gives aggregates with {@code @Id @dev.crid.data.Crid} their IDs from the
 * {@link CridNode} bean without ever blocking a non-blocking thread, and a check at
 * start-up of every aggregate the mapping context knows.
 */
@AutoConfiguration(after = CridAutoConfiguration.class,
		afterName = "org.springframework.boot.data.r2dbc.autoconfigure.DataR2dbcAutoConfiguration")
@ConditionalOnClass(name = { "dev.crid.data.CridR2dbcCallback",
		"org.springframework.data.r2dbc.mapping.R2dbcMappingContext", "reactor.core.publisher.Mono" })
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@ConditionalOnBean({ CridNode.class, R2dbcMappingContext.class })
public final class CridDataR2dbcAutoConfiguration {

	CridDataR2dbcAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	CridR2dbcCallback cridR2dbcCallback(CridNodes cridNodes, R2dbcMappingContext r2dbcMappingContext) {
		return new CridR2dbcCallback(cridNodes.all(), r2dbcMappingContext);
	}

	@Bean
	@ConditionalOnMissingBean(name = "cridR2dbcAggregateCheck")
	AggregateCheck cridR2dbcAggregateCheck(CridR2dbcCallback cridR2dbcCallback) {
		return new AggregateCheck(cridR2dbcCallback::verify, "Spring Data R2DBC");
	}

}

package dev.crid.autoconfigure.data.r2dbc;

import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/**
 * Whether the registry on R2DBC is wanted: {@code crid.registry.type=r2dbc}, or
 * {@code auto} (the default) in an application without a DataSource, which would
 * otherwise get the JDBC registry.
 */
class R2dbcRegistryCondition extends AnyNestedCondition {

	R2dbcRegistryCondition() {
		super(ConfigurationPhase.REGISTER_BEAN);
	}

	@ConditionalOnProperty(name = "crid.registry.type", havingValue = "r2dbc")
	static class Asked {

	}

	@ConditionalOnProperty(name = "crid.registry.type", havingValue = "auto", matchIfMissing = true)
	@ConditionalOnMissingBean(type = "javax.sql.DataSource")
	static class AutoWithoutDataSource {

	}

}

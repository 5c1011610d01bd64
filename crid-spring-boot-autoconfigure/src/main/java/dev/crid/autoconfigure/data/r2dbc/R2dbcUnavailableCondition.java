package dev.crid.autoconfigure.data.r2dbc;

import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;

/**
 * Whether the registry on R2DBC cannot be set up: its classes are missing, or there is no
 * ConnectionFactory.
 */
class R2dbcUnavailableCondition extends AnyNestedCondition {

	R2dbcUnavailableCondition() {
		super(ConfigurationPhase.REGISTER_BEAN);
	}

	@ConditionalOnMissingClass(CridR2dbcRegistryAutoConfiguration.REGISTRY_CLASS)
	static class NoRegistryClass {

	}

	@ConditionalOnMissingClass(CridR2dbcRegistryAutoConfiguration.CONNECTION_FACTORY_CLASS)
	static class NoConnectionFactoryClass {

	}

	@ConditionalOnMissingBean(type = CridR2dbcRegistryAutoConfiguration.CONNECTION_FACTORY_CLASS)
	static class NoConnectionFactory {

	}

}

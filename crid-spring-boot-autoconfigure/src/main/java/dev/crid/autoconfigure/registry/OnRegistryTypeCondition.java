package dev.crid.autoconfigure.registry;

import java.util.List;
import java.util.Locale;

import dev.crid.Registry;
import dev.crid.autoconfigure.CridConfigurationException;
import dev.crid.autoconfigure.CridNodes;
import dev.crid.autoconfigure.RegistryType;
import dev.crid.autoconfigure.Setting;
import dev.crid.autoconfigure.Violation;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.Assert;

/**
 * The one choice of a registry, behind {@link ConditionalOnRegistryType}, in this order:
 * a {@link Registry} bean of the application's own, which leaves crid's registries out;
 * else the kind {@code crid.registry.type} names; else, for {@code auto}, the first kind
 * of {@link RegistryNeeds#AUTO_ORDER} whose needs the application meets. A kind named
 * whose needs are not met stops start-up, saying what is missing; so does
 * {@code crid.registry.etcd.endpoints} under {@code auto} when the etcd registry is not
 * on the classpath, as the endpoints are set for it alone, and falling back to another
 * kind would reserve in another registry than the one the configuration asks for.
 */
class OnRegistryTypeCondition extends SpringBootCondition implements ConfigurationCondition {

	static final String PROPERTY = "crid.registry.type";

	@Override
	public ConfigurationPhase getConfigurationPhase() {
		return ConfigurationPhase.REGISTER_BEAN;
	}

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		RegistryType wanted = metadata.getAnnotations()
			.get(ConditionalOnRegistryType.class)
			.getEnum("value", RegistryType.class);
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		Assert.state(beanFactory != null, "No bean factory to look for registries in");
		if (beanFactory.getBeanNamesForType(Registry.class, true, false).length > 0) {
			return ConditionOutcome.noMatch("the application defines its own Registry bean");
		}
		RegistryType chosen = choose(context, beanFactory);
		String message = PROPERTY + " chooses " + name(chosen) + ", wanted " + name(wanted);
		return (chosen == wanted) ? ConditionOutcome.match(message) : ConditionOutcome.noMatch(message);
	}

	private static RegistryType choose(ConditionContext context, ConfigurableListableBeanFactory beanFactory) {
		RegistryType type = Binder.get(context.getEnvironment())
			.bind(PROPERTY, RegistryType.class)
			.orElse(RegistryType.AUTO);
		if (type == RegistryType.AUTO && RegistryNeeds.etcdEndpointsSet(context.getEnvironment())) {
			List<String> missing = RegistryNeeds.missing(RegistryType.ETCD, context.getClassLoader(), beanFactory,
					context.getEnvironment());
			if (!missing.isEmpty()) {
				throw new CridConfigurationException(CridNodes.DEFAULT_NODE,
						List.of(new Violation(Setting.ETCD_ENDPOINTS, endpoints(context),
								"is set, so " + PROPERTY + "=auto chooses the etcd registry, which needs what the "
										+ "application lacks: " + String.join(", ", missing))),
						null, null);
			}
			return RegistryType.ETCD;
		}
		if (type == RegistryType.AUTO) {
			return RegistryNeeds.AUTO_ORDER.stream()
				.filter((candidate) -> RegistryNeeds
					.missing(candidate, context.getClassLoader(), beanFactory, context.getEnvironment())
					.isEmpty())
				.findFirst()
				.orElse(RegistryType.MEMORY);
		}
		List<String> missing = RegistryNeeds.missing(type, context.getClassLoader(), beanFactory,
				context.getEnvironment());
		if (!missing.isEmpty()) {
			throw new CridConfigurationException(CridNodes.DEFAULT_NODE, List.of(new Violation(Setting.REGISTRY_TYPE,
					name(type), "needs what the application lacks: " + String.join(", ", missing))), null, null);
		}
		return type;
	}

	private static String endpoints(ConditionContext context) {
		return String.join(",",
				Binder.get(context.getEnvironment())
					.bind(RegistryNeeds.ETCD_ENDPOINTS, Bindable.listOf(String.class))
					.orElse(List.of()));
	}

	private static String name(RegistryType type) {
		return type.name().toLowerCase(Locale.ROOT);
	}

}

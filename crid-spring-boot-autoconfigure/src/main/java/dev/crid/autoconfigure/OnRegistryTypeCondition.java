package dev.crid.autoconfigure;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import dev.crid.autoconfigure.CridProperties.RegistryType;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The condition behind {@link ConditionalOnRegistryType}.
 */
class OnRegistryTypeCondition extends SpringBootCondition {

	static final String PROPERTY = "crid.registry.type";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		List<RegistryType> wanted = Arrays.asList(metadata.getAnnotations()
			.get(ConditionalOnRegistryType.class)
			.getEnumArray("value", RegistryType.class));
		RegistryType type = Binder.get(context.getEnvironment())
			.bind(PROPERTY, RegistryType.class)
			.orElse(RegistryType.AUTO);
		String message = PROPERTY + " is " + type.name().toLowerCase(Locale.ROOT) + ", wanted one of " + wanted;
		return wanted.contains(type) ? ConditionOutcome.match(message) : ConditionOutcome.noMatch(message);
	}

}

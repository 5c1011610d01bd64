package dev.crid.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when {@code crid.nodes} names one node or more, or none, as
 * {@link ConditionalOnNamedNodes} asks.
 */
class OnNamedNodesCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		var attributes = metadata.getAnnotationAttributes(ConditionalOnNamedNodes.class.getName());
		boolean wanted = attributes == null || !Boolean.FALSE.equals(attributes.get("value"));
		boolean present = !NamedNodesRegistrar.bind(context.getEnvironment()).isEmpty();
		return (present == wanted) ? ConditionOutcome.match("crid.nodes " + (present ? "names nodes" : "is empty"))
				: ConditionOutcome.noMatch("crid.nodes " + (present ? "names nodes" : "is empty"));
	}

}

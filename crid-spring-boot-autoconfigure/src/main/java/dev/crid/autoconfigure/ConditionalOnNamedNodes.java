package dev.crid.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Conditional;

/**
 * Matches when {@code crid.nodes} names at least one node ({@code true}), or none
 * ({@code false}).
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Conditional(OnNamedNodesCondition.class)
public @interface ConditionalOnNamedNodes {

	/**
	 * Whether named nodes must be configured for the condition to match.
	 * @return {@code true} to match when there are named nodes, {@code false} when there
	 * are none
	 */
	boolean value() default true;

}

package dev.crid.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.crid.autoconfigure.CridProperties.RegistryType;

import org.springframework.context.annotation.Conditional;

/**
 * Matches when {@code crid.registry.type} (bound as Spring Boot binds it, {@code auto}
 * when unset) is one of the given types: how each registry's configuration, in this
 * package and the sub-packages, comes into play.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.TYPE, ElementType.METHOD })
@Documented
@Conditional(OnRegistryTypeCondition.class)
public @interface ConditionalOnRegistryType {

	/**
	 * The registry types to match.
	 * @return the types
	 */
	RegistryType[] value();

}

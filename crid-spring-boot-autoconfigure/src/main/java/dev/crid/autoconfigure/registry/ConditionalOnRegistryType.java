package dev.crid.autoconfigure.registry;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.crid.autoconfigure.RegistryType;

import org.springframework.context.annotation.Conditional;

/**
 * Matches when the given kind is the registry crid chooses (see
 * {@link OnRegistryTypeCondition}): how each kind's configuration comes into play.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Documented
@Conditional(OnRegistryTypeCondition.class)
@interface ConditionalOnRegistryType {

	/**
	 * The kind of registry to match; never {@link RegistryType#AUTO}.
	 * @return the kind
	 */
	RegistryType value();

}

package dev.crid.autoconfigure;

import dev.crid.CridNode;

/**
 * Adjusts the builder of the auto-configured {@link CridNode} after the {@code crid.*} properties have
 * been applied and before the node is built, without replacing the bean: for example to set a
 * {@link java.time.Clock} or a prefetch {@link java.util.concurrent.Executor}. Every customizer bean is
 * applied, in {@link org.springframework.core.Ordered} order.
 */
@FunctionalInterface
public interface CridNodeCustomizer {

	/**
	 * Customizes the node builder.
	 * @param builder the builder, with the {@code crid.*} properties already applied
	 */
	void customize(CridNode.Builder builder);

}

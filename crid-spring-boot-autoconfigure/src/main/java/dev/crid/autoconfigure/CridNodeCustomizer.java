package dev.crid.autoconfigure;

import dev.crid.CridNode;

/**
 * Adjusts the builder of the auto-configured {@link CridNode} after the {@code crid.*}
 * properties have been applied and before the node is built, without replacing the bean:
 * for example to set a {@link java.time.Clock} or a prefetch
 * {@link java.util.concurrent.Executor}. Every customizer bean is applied, in
 * {@link org.springframework.core.Ordered} order. It customizes the default node only,
 * unless it overrides {@link #customize(String, CridNode.Builder)} to customize the named
 * nodes too.
 */
@FunctionalInterface
public interface CridNodeCustomizer {

	/**
	 * Customizes the node builder.
	 * @param builder the builder, with the {@code crid.*} properties already applied
	 */
	void customize(CridNode.Builder builder);

	/**
	 * Customizes the builder of the node of the given name; calls
	 * {@link #customize(CridNode.Builder)} for the default node only, and leaves the
	 * named nodes ({@code crid.nodes.<name>}) alone.
	 * @param nodeName the node's name, {@value CridNodes#DEFAULT_NODE} for the default
	 * node
	 * @param builder the builder, with the node's properties already applied
	 */
	default void customize(String nodeName, CridNode.Builder builder) {
		if (CridNodes.DEFAULT_NODE.equals(nodeName)) {
			customize(builder);
		}
	}

}

package dev.crid.data;

import java.util.Map;

import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.mapping.event.BeforeConvertCallback;

import dev.crid.CridNode;
import dev.crid.InvalidConfigException;

/**
 * Gives Spring Data JDBC aggregates whose {@code @Id} is {@link Crid} an ID from a
 * {@link CridNode} (the one {@link Crid#value()} names) before they are first written:
 * when the field is {@code null} (or {@code 0} for a {@code long}). Spring Data JDBC has
 * decided by then that the aggregate is new, so it inserts it with the ID. An ID that is
 * set is left alone. Aggregates without {@code @Crid} pass through untouched.
 *
 * <p>
 * The Spring Boot auto-configuration registers it and {@linkplain #verify() verifies} the
 * aggregates at start-up; without Spring Boot, declare it as a bean:
 *
 * <pre class="code">
 * &#064;Bean
 * CridJdbcCallback cridJdbcCallback(CridNode cridNode, JdbcMappingContext mappingContext) {
 *     return new CridJdbcCallback(cridNode, mappingContext);
 * }</pre>
 *
 * <p>
 * {@link CridNode#nextId()} runs on the thread that saves, and waits for the registry
 * only when the node has no block at hand (at most its allocation timeout). Thread-safe.
 */
public final class CridJdbcCallback implements BeforeConvertCallback<Object> {

	private final CridIdAssigner assigner;

	/**
	 * Creates the callback with the default node only, as if the nodes were a map of
	 * {@code "default"} to it: aggregates whose {@code @Crid} names another node are
	 * refused.
	 * @param node the node that hands out the IDs
	 * @param mappingContext the mapping context of the aggregates
	 * @throws IllegalArgumentException when an argument is {@code null}
	 */
	public CridJdbcCallback(CridNode node, RelationalMappingContext mappingContext) {
		this.assigner = new CridIdAssigner(node, mappingContext);
	}

	/**
	 * Creates the callback with named nodes: an aggregate whose {@code @Crid} names a
	 * node takes its IDs from the node of that name, and {@code @Crid} without a name (or
	 * {@code @Crid("default")}) from the node named {@code "default"}, which the map must
	 * then hold. An aggregate that names a node the map has not is refused by
	 * {@link #verify()}, or at its first save.
	 * @param nodes the nodes by name; copied
	 * @param mappingContext the mapping context of the aggregates
	 * @throws IllegalArgumentException when an argument, a name or a node is {@code null}
	 */
	public CridJdbcCallback(Map<String, CridNode> nodes, RelationalMappingContext mappingContext) {
		this.assigner = new CridIdAssigner(nodes, mappingContext);
	}

	/**
	 * Sets the aggregate's {@code @Crid} {@code @Id} when it is unset.
	 * @param aggregate the aggregate about to be written
	 * @return the aggregate with its ID: the same object, or a copy when the ID cannot be
	 * set in place
	 * @throws InvalidConfigException when the aggregate's class uses {@code @Crid}
	 * wrongly
	 */
	@Override
	public Object onBeforeConvert(Object aggregate) {
		CridIdAssigner.Target target = this.assigner.target(aggregate.getClass());
		return target.needsId(aggregate) ? target.assign(aggregate, target.issuer().nextId()) : aggregate;
	}

	/**
	 * Checks every aggregate the mapping context knows, so that a misuse of {@code @Crid}
	 * stops start-up rather than the first save.
	 * @throws InvalidConfigException naming every aggregate and field whose {@code @Crid}
	 * is on an unsupported type, on a property that is not the {@code @Id}, or names a
	 * node this callback was not given
	 */
	public void verify() {
		this.assigner.verify();
	}

}

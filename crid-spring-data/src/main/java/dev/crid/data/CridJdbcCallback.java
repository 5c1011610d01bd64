package dev.crid.data;

import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.mapping.event.BeforeConvertCallback;

import dev.crid.CridNode;
import dev.crid.InvalidConfigException;

/**
 * Gives Spring Data JDBC aggregates whose {@code @Id} is {@link Crid} an ID from a {@link CridNode} before
 * they are first written: when the field is {@code null} (or {@code 0} for a {@code long}). Spring Data
 * JDBC has decided by then that the aggregate is new, so it inserts it with the ID. An ID that is set is
 * left alone. Aggregates without {@code @Crid} pass through untouched.
 *
 * <p>The Spring Boot auto-configuration registers it and {@linkplain #verify() verifies} the aggregates at
 * start-up; without Spring Boot, declare it as a bean:
 *
 * <pre>{@code
 * @Bean
 * CridJdbcCallback cridJdbcCallback(CridNode cridNode, JdbcMappingContext mappingContext) {
 *     return new CridJdbcCallback(cridNode, mappingContext);
 * }
 * }</pre>
 *
 * <p>{@link CridNode#nextId()} runs on the thread that saves, and waits for the registry only when the
 * node has no block at hand (at most its allocation timeout). Thread-safe.
 */
public final class CridJdbcCallback implements BeforeConvertCallback<Object> {

	private final CridIdAssigner assigner;

	/**
	 * Creates the callback.
	 * @param node the node that hands out the IDs
	 * @param mappingContext the mapping context of the aggregates
	 * @throws IllegalArgumentException when an argument is {@code null}
	 */
	public CridJdbcCallback(CridNode node, RelationalMappingContext mappingContext) {
		this.assigner = new CridIdAssigner(node, mappingContext);
	}

	/**
	 * Sets the aggregate's {@code @Crid} {@code @Id} when it is unset.
	 * @param aggregate the aggregate about to be written
	 * @return the aggregate with its ID: the same object, or a copy when the ID cannot be set in place
	 * @throws InvalidConfigException when the aggregate's class uses {@code @Crid} wrongly
	 */
	@Override
	public Object onBeforeConvert(Object aggregate) {
		CridIdAssigner.Target target = this.assigner.target(aggregate.getClass());
		return target.needsId(aggregate) ? target.assign(aggregate, this.assigner.node().nextId()) : aggregate;
	}

	/**
	 * Checks every aggregate the mapping context knows, so that a misuse of {@code @Crid} stops start-up
	 * rather than the first save.
	 * @throws InvalidConfigException naming every aggregate and field whose {@code @Crid} is on an
	 * unsupported type, on a property that is not the {@code @Id}, or names a node
	 */
	public void verify() {
		this.assigner.verify();
	}

}

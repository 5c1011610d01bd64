package dev.crid.data;

import java.util.Map;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.data.r2dbc.mapping.event.BeforeConvertCallback;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.sql.SqlIdentifier;

import dev.crid.CridNode;
import dev.crid.InvalidConfigException;

/**
 * Gives Spring Data R2DBC aggregates whose {@code @Id} is {@link Crid} an ID from a
 * {@link CridNode} (the one {@link Crid#value()} names) before they are first written:
 * when the field is {@code null} (or {@code 0} for a {@code long}); an ID that is set is
 * left alone, and aggregates without {@code @Crid} pass through untouched.
 *
 * <p>
 * It never blocks a thread that must not block. {@link CridNode#nextId()} may wait for
 * the registry when the node has no block at hand, so when the returned publisher is
 * subscribed on a non-blocking thread (an event loop, Reactor's parallel scheduler:
 * {@link Schedulers#isInNonBlockingThread()}), the ID is taken from the aggregate's node
 * on {@link Schedulers#boundedElastic()}; on any other thread, directly. With several
 * nodes the rule is the same for each. The node tells no public way yet to know that
 * taking an ID will not wait, so on a non-blocking thread the callback always hops, which
 * costs a thread switch per aggregate saved, not a wait.
 *
 * <p>
 * The Spring Boot auto-configuration registers it and {@linkplain #verify() verifies} the
 * aggregates at start-up; without Spring Boot, declare it as a bean with the
 * {@code R2dbcMappingContext}. Thread-safe.
 */
public final class CridR2dbcCallback implements BeforeConvertCallback<Object> {

	private final CridIdAssigner assigner;

	/**
	 * Creates the callback with the default node only, as if the nodes were a map of
	 * {@code "default"} to it: aggregates whose {@code @Crid} names another node are
	 * refused.
	 * @param node the node that hands out the IDs
	 * @param mappingContext the mapping context of the aggregates (an
	 * {@code R2dbcMappingContext})
	 * @throws IllegalArgumentException when an argument is {@code null}
	 */
	public CridR2dbcCallback(CridNode node, RelationalMappingContext mappingContext) {
		this.assigner = new CridIdAssigner(node, mappingContext);
		createBoundedElasticScheduler();
	}

	/**
	 * Creates the callback with named nodes: an aggregate whose {@code @Crid} names a
	 * node takes its IDs from the node of that name, and {@code @Crid} without a name (or
	 * {@code @Crid("default")}) from the node named {@code "default"}, which the map must
	 * then hold. An aggregate that names a node the map has not is refused by
	 * {@link #verify()}, or at its first save.
	 * @param nodes the nodes by name; copied
	 * @param mappingContext the mapping context of the aggregates (an
	 * {@code R2dbcMappingContext})
	 * @throws IllegalArgumentException when an argument, a name or a node is {@code null}
	 */
	public CridR2dbcCallback(Map<String, CridNode> nodes, RelationalMappingContext mappingContext) {
		this.assigner = new CridIdAssigner(nodes, mappingContext);
		createBoundedElasticScheduler();
	}

	/**
	 * Creates Reactor's shared bounded elastic scheduler now, on the thread that builds
	 * the callback, unless it exists already. Otherwise the first saves would create it
	 * on event loops, and when two do so at once Reactor disposes the copy that lost,
	 * which takes a lock there.
	 */
	private static void createBoundedElasticScheduler() {
		Schedulers.boundedElastic();
	}

	/**
	 * Returns the aggregate with its {@code @Crid} {@code @Id} set when it was unset.
	 * @param aggregate the aggregate about to be written
	 * @param table the table it is written to
	 * @return a publisher of the aggregate with its ID: the same object, or a copy when
	 * the ID cannot be set in place; it fails with an {@link InvalidConfigException} when
	 * the aggregate's class uses {@code @Crid} wrongly, and with the node's exception
	 * when no ID can be had
	 */
	@Override
	public Publisher<Object> onBeforeConvert(Object aggregate, SqlIdentifier table) {
		CridIdAssigner.Target target;
		try {
			target = this.assigner.target(aggregate.getClass());
		}
		catch (InvalidConfigException ex) {
			return Mono.error(ex);
		}
		if (!target.needsId(aggregate)) {
			return Mono.just(aggregate);
		}
		Mono<Long> id = Mono.fromCallable(target.issuer()::nextId);
		Mono<Long> safeId = Mono
			.defer(() -> Schedulers.isInNonBlockingThread() ? id.subscribeOn(Schedulers.boundedElastic()) : id);
		return safeId.map((value) -> target.assign(aggregate, value));
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

package dev.crid.autoconfigure.observation;

import java.util.Map;
import java.util.function.Supplier;

import dev.crid.CridLayout;
import dev.crid.InMemoryRegistry;
import dev.crid.Registry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * A {@link Registry} that makes every reservation of the registry it wraps an observation
 * named {@value #NAME}, started and stopped on the calling thread, with its scope open
 * around the call: a reservation made while a caller waits joins the caller's trace, and
 * the database calls under it join the reservation's.
 */
final class ObservedRegistry implements Registry {

	/** The observation's name. */
	static final String NAME = "crid.registry.reserve";

	/** Low-cardinality key: the node's name. */
	static final String NODE = "crid.node";

	/** Low-cardinality key: the kind of registry, as {@link #kind(Registry)} names it. */
	static final String REGISTRY = "crid.registry";

	/** Low-cardinality key: {@value #SUCCESS} or {@value #FAILURE}. */
	static final String OUTCOME = "outcome";

	/**
	 * High-cardinality key: the second reserved in, as seconds since the layout's epoch.
	 */
	static final String TIMESTAMP = "crid.timestamp";

	static final String SUCCESS = "success";

	static final String FAILURE = "failure";

	private static final String JDBC_REGISTRY = "dev.crid.jdbc.JdbcTemplateRegistry";

	private static final String R2DBC_REGISTRY = "dev.crid.data.r2dbc.R2dbcRegistry";

	private final Registry registry;

	private final ObservationRegistry observations;

	private final String nodeName;

	private final String kind;

	ObservedRegistry(Registry registry, ObservationRegistry observations, String nodeName) {
		this.registry = registry;
		this.observations = observations;
		this.nodeName = nodeName;
		this.kind = kind(registry);
	}

	/**
	 * Names the kind of registry: {@code jdbc}, {@code r2dbc} or {@code memory} for
	 * crid's own, else the class's simple name (its full name for a class without one).
	 */
	static String kind(Registry registry) {
		if (registry instanceof InMemoryRegistry) {
			return "memory";
		}
		Class<?> type = registry.getClass();
		return switch (type.getName()) {
			case JDBC_REGISTRY -> "jdbc";
			case R2DBC_REGISTRY -> "r2dbc";
			default -> type.getSimpleName().isEmpty() ? type.getName() : type.getSimpleName();
		};
	}

	@Override
	public long allocate(long timestamp, long blockSize) {
		return observe(timestamp, () -> this.registry.allocate(timestamp, blockSize));
	}

	@Override
	public Reservation reserve(long timestamp, long blockSize) {
		return observe(timestamp, () -> this.registry.reserve(timestamp, blockSize));
	}

	@Override
	public void checkLayout(CridLayout layout) {
		this.registry.checkLayout(layout);
	}

	@Override
	public String kind() {
		return this.registry.kind();
	}

	@Override
	public Map<String, Object> details() {
		return this.registry.details();
	}

	@Override
	public boolean check() {
		return this.registry.check();
	}

	@Override
	public boolean answersFromMemory() {
		return this.registry.answersFromMemory();
	}

	// The scope makes the observation current while the registry runs: its body need not
	// name it.
	@SuppressWarnings("try")
	private <T> T observe(long timestamp, Supplier<T> reservation) {
		Observation observation = Observation.createNotStarted(NAME, this.observations)
			.lowCardinalityKeyValue(NODE, this.nodeName)
			.lowCardinalityKeyValue(REGISTRY, this.kind)
			.highCardinalityKeyValue(TIMESTAMP, Long.toString(timestamp))
			.start();
		try (Observation.Scope scope = observation.openScope()) {
			T result = reservation.get();
			observation.lowCardinalityKeyValue(OUTCOME, SUCCESS);
			return result;
		}
		catch (RuntimeException | Error ex) {
			observation.lowCardinalityKeyValue(OUTCOME, FAILURE);
			observation.error(ex);
			throw ex;
		}
		finally {
			observation.stop();
		}
	}

	/**
	 * Returns the wrapped registry's description: the node names its registry by it in
	 * messages.
	 */
	@Override
	public String toString() {
		return this.registry.toString();
	}

}

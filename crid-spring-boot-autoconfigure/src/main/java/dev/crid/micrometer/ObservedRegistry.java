package dev.crid.micrometer;

import java.util.Map;
import java.util.function.Supplier;

import dev.crid.CridLayout;
import dev.crid.Registry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * A {@link Registry} that makes every reservation of the registry it wraps an observation
 * named {@value #NAME}, started and stopped on the calling thread, with its scope open
 * around the call: a reservation made while a caller waits joins the caller's trace, and
 * the database calls under it join the reservation's.
 */
public final class ObservedRegistry implements Registry {

	/** The observation's name. */
	public static final String NAME = "crid.registry.reserve";

	/** Low-cardinality key: the node's name. */
	public static final String NODE = "crid.node";

	/** Low-cardinality key: the kind of registry, as {@link Registry#kind()} names it. */
	public static final String REGISTRY = "crid.registry";

	/** Low-cardinality key: {@value #SUCCESS} or {@value #FAILURE}. */
	public static final String OUTCOME = "outcome";

	/**
	 * High-cardinality key: the second reserved in, as seconds since the layout's epoch.
	 */
	public static final String TIMESTAMP = "crid.timestamp";

	/** The outcome of a reservation that returned a block. */
	public static final String SUCCESS = "success";

	/** The outcome of a reservation that threw. */
	public static final String FAILURE = "failure";

	private final Registry registry;

	private final ObservationRegistry observations;

	private final String nodeName;

	private final String kind;

	/**
	 * Creates a registry that observes the reservations of another.
	 * @param registry the registry to observe
	 * @param observations where the observations go
	 * @param nodeName the name of the node that reserves through it, the value of
	 * {@value #NODE}
	 */
	public ObservedRegistry(Registry registry, ObservationRegistry observations, String nodeName) {
		this.registry = registry;
		this.observations = observations;
		this.nodeName = nodeName;
		this.kind = registry.kind();
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

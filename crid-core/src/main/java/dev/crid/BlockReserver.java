package dev.crid;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * Turns one registry answer into a {@link Block}: checks the layout before the first
 * reservation, reads the clock, asks the registry, rejects starts that cannot be sequence
 * numbers and clocks too far from the registry's, clamps a block that runs past the
 * largest sequence number, and waits for the next second when the current one is used up.
 *
 * <p>
 * Invariant: it never serves a block itself and keeps no state of the node's blocks, so a
 * call that was given up on and returns late changes nothing the node relies on.
 */
final class BlockReserver {

	/**
	 * The largest start a block may have: {@link Long#MAX_VALUE} always means a used-up
	 * second.
	 */
	private static final long LAST_SERVABLE = Long.MAX_VALUE - 1;

	private final Registry registry;

	private final CridLayout layout;

	private final Clock clock;

	private final Duration maxClockSkew;

	private final NodeStatistics statistics;

	private final Timing timing;

	private final CallGate gate;

	/** How long after its call began a block expires: see {@link Runway}. */
	private final long maxAgeNanos;

	private volatile boolean layoutChecked;

	BlockReserver(NodeSettings settings, NodeStatistics statistics, CallGate gate) {
		this.gate = gate;
		this.maxAgeNanos = Runway.maxAgeNanos(settings.runway());
		this.registry = settings.registry();
		this.timing = settings.timing();
		this.layout = settings.layout();
		this.clock = settings.clock();
		this.maxClockSkew = settings.maxClockSkew();
		this.statistics = statistics;
	}

	/**
	 * Reserves a block, waiting at most until the attempt's deadline for a used-up second
	 * to pass. Whether the block overlaps one given before is for the caller to check, in
	 * the order the answers are taken.
	 */
	Block reserve(Attempt attempt) throws InterruptedException {
		checkLayout(attempt);
		while (true) {
			long calledAt = this.timing.nanoTime();
			Instant before = this.clock.instant();
			long timestamp = this.layout.timestampAt(before);
			Registry.Reservation reservation = reserve(timestamp, attempt.size(), attempt);
			long start = reservation.start();
			if (start < 0) {
				throw new InvalidSequenceException(
						"Registry " + this.registry + " returned start " + start + " for timestamp " + timestamp
								+ "; a start must be in [0, " + this.layout.maxSequence() + "]");
			}
			Instant after = this.clock.instant();
			checkClockSkew(reservation.registryTime(), before, after, calledAt);
			checkAnsweredInTime(timestamp, after);
			if (start <= Math.min(this.layout.maxSequence(), LAST_SERVABLE)) {
				return block(timestamp, start, attempt.size(), calledAt);
			}
			// Cleared only once the next second has come: a caller that gives up while
			// this attempt is waiting must still see which second was used up.
			attempt.waitingForNextSecond(timestamp);
			awaitNextSecond(timestamp, attempt.deadline(), () -> usedUp(timestamp));
			attempt.waitingForNextSecond(-1);
		}
	}

	/**
	 * Waits, until the deadline at most, for the second after one in which the registry
	 * went back.
	 */
	void awaitSecondAfterWentBack(long timestamp, long deadline) throws InterruptedException {
		awaitNextSecond(timestamp, deadline, () -> new RegistryException("Registry " + this.registry + " went back: "
				+ "it handed out sequence numbers of timestamp " + timestamp + " that it had given this node before, "
				+ "and the next second did not come within the allocation timeout"));
	}

	private void checkLayout(Attempt attempt) {
		if (this.layoutChecked) {
			return;
		}
		enter(attempt);
		attempt.registryCallStarted(this.timing.nanoTime());
		try {
			this.registry.checkLayout(this.layout);
		}
		catch (CridException ex) {
			throw ex;
		}
		catch (Exception ex) { // a checked exception too, thrown without being declared
			throw new RegistryException(
					"Registry " + this.registry + " failed to check the layout " + this.layout + ": " + ex, ex);
		}
		finally {
			attempt.registryCallEnded();
			this.gate.exit();
		}
		this.layoutChecked = true;
	}

	private Registry.Reservation reserve(long timestamp, long size, Attempt attempt) {
		enter(attempt);
		attempt.registryCallStarted(this.timing.nanoTime());
		try {
			Registry.Reservation reservation = this.registry.reserve(timestamp, size);
			if (reservation == null) {
				throw new RegistryException(
						"Registry " + this.registry + " returned no reservation for timestamp " + timestamp);
			}
			return reservation;
		}
		catch (CridException ex) {
			throw ex;
		}
		catch (Exception ex) { // a checked exception too, thrown without being declared
			throw new RegistryException("Registry " + this.registry + " failed to reserve " + size
					+ " sequence numbers for timestamp " + timestamp + ": " + ex, ex);
		}
		finally {
			attempt.registryCallEnded();
			this.gate.exit();
		}
	}

	/**
	 * Passes the gate, or ends the attempt: the node closed, or gave up on it, so nobody
	 * waits for what the call would return.
	 */
	private void enter(Attempt attempt) {
		if (!this.gate.enter(attempt)) {
			throw new RegistryException("The node closed or gave up on the reservation before its registry call", null,
					false);
		}
	}

	/**
	 * Records how far the registry's clock is from this node's, estimated from the middle
	 * of the call, and refuses the block when even the most favourable reading of the
	 * call's duration leaves the clocks further apart than allowed. The skew is that of
	 * the clock reading {@code before} the call, which stamps the block; the call lasts
	 * from there to the reading {@code after} it, but never longer than the monotonic
	 * clock measured: a clock set right (or wrong) while the call was out does not pass
	 * for a call of an hour, whose middle would fit any registry time.
	 */
	private void checkClockSkew(@Nullable Instant registryTime, Instant before, Instant after, long calledAt) {
		if (registryTime == null) {
			return;
		}
		long now = this.timing.nanoTime();
		Duration monotonic = Duration.ofNanos(Math.max(0, now - calledAt));
		Duration onClock = Duration.between(before, after);
		Duration call = onClock.isNegative() ? Duration.ZERO : (onClock.compareTo(monotonic) < 0) ? onClock : monotonic;
		Instant middle = before.plus(call.dividedBy(2));
		Duration skew = Duration.between(middle, registryTime);
		this.statistics.clockSkew(skew, middle, now - call.toNanos() / 2);
		if (skew.abs().minus(call.dividedBy(2)).compareTo(this.maxClockSkew) > 0) {
			throw new RegistryException("This node's clock is " + describeSkew(skew) + " the clock of registry "
					+ this.registry + ", more than the " + this.maxClockSkew + " allowed (maxClockSkew): refusing to "
					+ "serve IDs stamped with a wrong time; set the node's clock right (NTP)", null, true);
		}
	}

	/**
	 * Refuses a block whose answer came once the second after its own had ended: its
	 * second was read from the clock so long before that the registry may have failed
	 * over meanwhile, to a replica that lost reservations other nodes were given in that
	 * second (docs/RELIABILITY.md). The next attempt reads the clock anew. A registry
	 * that answers within a second serves every block.
	 */
	private void checkAnsweredInTime(long timestamp, Instant after) {
		long answeredIn = this.layout.timestampAt(after);
		if (answeredIn - timestamp > 1) {
			throw new RegistryException("Registry " + this.registry + " answered for timestamp " + timestamp
					+ " only in timestamp " + answeredIn + ", once the next second had ended: not serving a block "
					+ "of a second whose reservations a registry that failed over meanwhile may have lost; "
					+ "asking again", null, true);
		}
	}

	static String describeSkew(Duration skew) {
		return skew.isNegative() ? skew.negated() + " ahead of" : skew + " behind";
	}

	private Block block(long timestamp, long start, long wanted, long calledAt) {
		long room = Math.min(this.layout.maxSequence(), LAST_SERVABLE) - start;
		long size = (wanted - 1 <= room) ? wanted : room + 1;
		long expiresAt = (this.maxAgeNanos == Long.MAX_VALUE) ? Long.MAX_VALUE : calledAt + this.maxAgeNanos;
		return new Block(timestamp, start, this.layout.shiftTimestamp(timestamp) | start, size, expiresAt);
	}

	Duration maxClockSkew() {
		return this.maxClockSkew;
	}

	private void awaitNextSecond(long current, long deadline, FailureSupplier failure) throws InterruptedException {
		while (true) {
			Instant now = this.clock.instant();
			if (this.layout.timestampAt(now) != current) {
				return;
			}
			long left = deadline - this.timing.nanoTime();
			if (left <= 0) {
				throw failure.get();
			}
			Instant nextSecond = this.layout.epoch().plusSeconds(current + 1);
			long untilNext = Math.max(Duration.between(now, nextSecond).toNanos(), TimeUnit.MILLISECONDS.toNanos(1));
			this.timing.sleep(Math.min(untilNext, left));
		}
	}

	static SequenceOverflowException usedUp(long timestamp) {
		return new SequenceOverflowException("Every sequence number of timestamp " + timestamp
				+ " is reserved and the next second did not come within the allocation timeout");
	}

	@Override
	public String toString() {
		return this.registry.toString();
	}

	/**
	 * What one reservation tells the node while it runs, so callers can tell a stuck call
	 * from a slow one.
	 */
	interface Attempt {

		/** How many sequence numbers to reserve. */
		long size();

		/**
		 * The {@link System#nanoTime()} after which waiting for the next second gives up.
		 */
		long deadline();

		/** The registry call starts now, by the node's {@link Timing}. */
		void registryCallStarted(long now);

		void registryCallEnded();

		/**
		 * Whether the node gave up on the reservation: it must call the registry no more.
		 */
		boolean givenUp();

		/**
		 * The used-up timestamp whose end the attempt is waiting for, or -1 once it has
		 * come.
		 */
		void waitingForNextSecond(long timestamp);

	}

	@FunctionalInterface
	private interface FailureSupplier {

		RuntimeException get();

	}

}

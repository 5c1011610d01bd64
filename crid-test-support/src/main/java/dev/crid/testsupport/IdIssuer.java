package dev.crid.testsupport;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;

import dev.crid.CridNode;

/**
 * A thread that takes IDs from a node until stopped, at a steady rate or as fast as it
 * can, keeping each ID, counting the calls that fail, and measuring the longest time
 * between two IDs: the load of the tests that prove that no ID repeats.
 */
public final class IdIssuer extends Thread {

	private final CridNode node;

	private final long nanosPerId;

	private volatile boolean stopped;

	private long[] ids = new long[1 << 16];

	private volatile int count;

	private volatile long failures;

	private volatile long longestPauseNanos;

	private volatile long lastIdNanos;

	private volatile Throwable failure;

	/**
	 * Creates an issuer; {@link #start()} starts it.
	 * @param node the node to take IDs from
	 * @param idsPerSecond the steady rate, or 0 for as fast as the node serves
	 */
	public IdIssuer(CridNode node, int idsPerSecond) {
		super("id-issuer");
		this.node = node;
		this.nanosPerId = (idsPerSecond > 0) ? TimeUnit.SECONDS.toNanos(1) / idsPerSecond : 0;
		setDaemon(true);
	}

	@Override
	public void run() {
		long started = System.nanoTime();
		long last = started;
		try {
			while (!this.stopped) {
				long now = System.nanoTime();
				long due = started + this.count * this.nanosPerId;
				if (due - now > 0) {
					LockSupport.parkNanos(due - now);
					continue;
				}
				long id;
				try {
					id = this.node.nextId();
				}
				catch (RuntimeException ex) {
					this.failures++;
					continue;
				}
				now = System.nanoTime();
				this.longestPauseNanos = Math.max(this.longestPauseNanos, now - last);
				last = now;
				this.lastIdNanos = now;
				if (this.count == this.ids.length) {
					this.ids = Arrays.copyOf(this.ids, this.ids.length * 2);
				}
				this.ids[this.count] = id;
				this.count++;
			}
		}
		catch (Throwable ex) {
			this.failure = ex;
		}
	}

	/**
	 * Tells the issuers to stop, and waits for them to end.
	 * @param issuers the issuers
	 * @throws InterruptedException if interrupted while waiting
	 */
	public static void stopAll(List<IdIssuer> issuers) throws InterruptedException {
		issuers.forEach((issuer) -> issuer.stopped = true);
		for (IdIssuer issuer : issuers) {
			issuer.join(TimeUnit.SECONDS.toMillis(60));
		}
	}

	/**
	 * Counts the IDs that more than one issuer, or one issuer more than once, took.
	 * @param issuers the issuers, stopped
	 * @return the IDs issued twice or more, each repeat counted
	 */
	public static long repeatedIds(List<IdIssuer> issuers) {
		long[] all = issuers.stream().flatMapToLong(IdIssuer::ids).toArray();
		Arrays.sort(all);
		long repeated = 0;
		for (int i = 1; i < all.length; i++) {
			if (all[i] == all[i - 1]) {
				repeated++;
			}
		}
		return repeated;
	}

	/**
	 * Returns how many IDs the issuer has taken.
	 * @return the count
	 */
	public int count() {
		return this.count;
	}

	/**
	 * Returns how many calls to {@code nextId()} failed.
	 * @return the failed calls
	 */
	public long failures() {
		return this.failures;
	}

	/**
	 * Returns the longest time between two IDs, or from the start to the first.
	 * @return the longest pause, in nanoseconds
	 */
	public long longestPauseNanos() {
		return this.longestPauseNanos;
	}

	/**
	 * Returns when ({@link System#nanoTime()}) the issuer took its last ID, or 0 before
	 * the first.
	 * @return the time of the last ID
	 */
	public long lastIdNanos() {
		return this.lastIdNanos;
	}

	/**
	 * Returns what ended the issuer other than a failed call, or {@code null}.
	 * @return the failure
	 */
	public Throwable failure() {
		return this.failure;
	}

	/**
	 * Returns the IDs taken; read them once the issuer has stopped.
	 * @return the IDs
	 */
	public LongStream ids() {
		return Arrays.stream(this.ids, 0, this.count);
	}

}

package dev.crid.etcd;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import org.jspecify.annotations.Nullable;

import dev.crid.CridLayout;
import dev.crid.InvalidConfigException;
import dev.crid.InvalidConfigException.Violation;
import dev.crid.LayoutMismatchException;
import dev.crid.Registry;
import dev.crid.RegistryException;

/**
 * A durable {@link Registry} on an etcd cluster, for services that share no SQL database
 * or span several regions. Under a key prefix ({@value #DEFAULT_KEY_PREFIX} unless set),
 * one key per second, {@code <prefix>seconds/<second>} (the second since the layout's
 * epoch, as 19 zero-padded digits), holds that second's {@code next_seq}: the next
 * unreserved sequence number, as the rows of crid-jdbc's table do, in decimal text.
 *
 * <pre class="code">
 * Client client = Client.builder().endpoints("http://etcd-1:2379", "http://etcd-2:2379", "http://etcd-3:2379").build();
 * EtcdRegistry registry = EtcdRegistry.builder(client).keyPrefix("orders/crid/").build();
 * CridNode node = CridNode.builder(registry).build();</pre>
 *
 * <h2>Reservations</h2> A reservation reads the second's key and writes its new value in
 * a transaction that commits only if the key's revision is the one read (or the key is
 * still missing) and the eviction watermark did not move; when another reservation came
 * first, it reads both anew in the same transaction and tries again, after a short random
 * pause, a bounded number of times within the {@link Builder#timeout(Duration) timeout}.
 * Only a committed transaction hands out numbers, so blocks never overlap, whatever fails
 * or is retried. etcd commits a transaction once a quorum of its members has it: a leader
 * that dies loses no reservation it acknowledged.
 *
 * <h2>Layout and eviction</h2> Beside the seconds, {@code <prefix>layout} records the
 * layout the registry was first used with (a node with another is refused, see
 * {@link #checkLayout}), and {@code <prefix>evicted-before} the eviction watermark. Keys
 * older than the {@link Builder#retention(Duration) retention} (a day by default) are
 * evicted: after a reservation, at most every 24th of the retention, the registry raises
 * the watermark to the second just reserved less the retention, then deletes the keys
 * below it. Every reservation's transaction compares the watermark, so once it is raised
 * no node, in any process, can reserve in an evicted second again: it is refused with a
 * {@link RegistryException} that is not retryable.
 *
 * <h2>Failures</h2> Any failure is a {@link RegistryException} with the cause attached.
 * Every operation ends within the timeout (2 seconds by default): a request etcd has not
 * answered by then is cancelled, and the failure is retryable, as are an unreachable
 * member or cluster, a cluster without a leader, and a reservation that lost every
 * attempt to others. A refused login or permission, and a key under the prefix that holds
 * something crid did not write, are not retryable. A thread interrupted during an
 * operation cancels the request, keeps its interrupt status, and gets a retryable failure
 * at once.
 *
 * <p>
 * The registry runs on the calling thread and starts no thread of its own; it does not
 * close the client, which the application owns. Thread-safe.
 */
public final class EtcdRegistry implements Registry {

	/** The key prefix used unless set otherwise: {@value}. */
	public static final String DEFAULT_KEY_PREFIX = "crid/";

	/**
	 * {@link #DEFAULT_TIMEOUT} in seconds ({@value}): a compile-time constant, which code
	 * that must not load this class can refer to.
	 */
	public static final long DEFAULT_TIMEOUT_SECONDS = 2;

	/**
	 * How long one registry operation may take unless set otherwise: 2 seconds, well
	 * below a node's default allocation timeout, so that a request caught in a leader
	 * election (which etcd never answers) ends, and the node asks the new leader, while
	 * its callers still wait.
	 */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(DEFAULT_TIMEOUT_SECONDS);

	/**
	 * {@link #DEFAULT_RETENTION} in days ({@value}): a compile-time constant, which code
	 * that must not load this class can refer to.
	 */
	public static final long DEFAULT_RETENTION_DAYS = 1;

	/** How long the keys of a second are kept unless set otherwise: a day. */
	public static final Duration DEFAULT_RETENTION = Duration.ofDays(DEFAULT_RETENTION_DAYS);

	private static final Duration MAX_TIMEOUT = Duration.ofDays(1);

	private final String keyPrefix;

	private final Duration timeout;

	private final @Nullable Duration retention;

	private final BlockReservations reservations;

	private final LayoutRecord layoutRecord;

	private final Evictions evictions;

	private final @Nullable EvictionSchedule evictionSchedule;

	private final EtcdCalls calls;

	private final RegistryKeys keys;

	private final KV kv;

	/** The layout the registry is known to serve, once checked. */
	private volatile @Nullable CridLayout checkedLayout;

	private EtcdRegistry(Builder builder) {
		Client client = builder.validate();
		this.keyPrefix = builder.keyPrefix;
		this.timeout = builder.timeout;
		this.retention = (builder.retention != null && builder.retention.isZero()) ? null : builder.retention;
		this.kv = client.getKVClient();
		this.keys = new RegistryKeys(this.keyPrefix);
		this.calls = new EtcdCalls(this.timeout);
		this.reservations = new BlockReservations(this.kv, this.keys, this.calls);
		this.layoutRecord = new LayoutRecord(this.kv, this.keys, this.calls);
		this.evictions = new Evictions(this.kv, this.keys, this.calls);
		this.evictionSchedule = (this.retention != null)
				? new EvictionSchedule(this.evictions, this.keyPrefix, this.retention) : null;
	}

	/**
	 * Starts a builder for a registry on the given client's cluster.
	 * @param client the jetcd client, which the application keeps and closes
	 * @return a builder with the default key prefix, timeout and retention
	 */
	public static Builder builder(Client client) {
		return new Builder(client);
	}

	/**
	 * Reserves {@code blockSize} sequence numbers of second {@code timestamp} and returns
	 * the first; etcd has committed the reservation when this method returns.
	 * @param timestamp seconds since the layout's epoch, not negative
	 * @param blockSize how many sequence numbers to reserve, at least 1
	 * @return the first reserved sequence number
	 * @throws IllegalArgumentException when an argument is out of range
	 * @throws RegistryException on any failure, or when the second was evicted (not
	 * retryable)
	 */
	@Override
	public long allocate(long timestamp, long blockSize) {
		if (timestamp < 0) {
			throw new IllegalArgumentException("timestamp is " + timestamp + " but must not be negative");
		}
		if (blockSize < 1) {
			throw new IllegalArgumentException("blockSize is " + blockSize + " but must be at least 1");
		}
		long start = this.reservations.reserve(timestamp, blockSize);
		if (this.evictionSchedule != null) {
			this.evictionSchedule.afterReservation(timestamp);
		}
		return start;
	}

	/**
	 * Records the layout in {@code <prefix>layout} if none is recorded yet, and refuses
	 * any other. Checked once per layout; later calls with the same layout do not ask
	 * etcd.
	 * @param layout the layout of the node about to use the registry
	 * @throws LayoutMismatchException when the registry was first used with another
	 * layout
	 * @throws RegistryException when etcd cannot be reached
	 */
	@Override
	public void checkLayout(CridLayout layout) {
		if (layout.equals(this.checkedLayout)) {
			return;
		}
		CridLayout recorded = this.layoutRecord.claim(layout);
		if (!recorded.equals(layout)) {
			throw new LayoutMismatchException("etcd keys '" + this.keyPrefix + "'", recorded, layout);
		}
		this.checkedLayout = layout;
	}

	/**
	 * Evicts every second before {@code timestamp}: raises the watermark below which
	 * reservations are refused, then deletes those seconds' keys. Safe to run from
	 * several processes at once, and beside running reservations; a node whose clock lags
	 * behind the watermark is refused rather than given numbers of an evicted second
	 * again. The registry also evicts by itself, by its retention; call this to evict by
	 * another rule.
	 * @param timestamp seconds since the layout's epoch: every second before it is
	 * evicted
	 * @return the number of keys deleted
	 * @throws IllegalArgumentException when the timestamp is negative
	 * @throws RegistryException when etcd cannot be reached
	 */
	public long evictBefore(long timestamp) {
		if (timestamp < 0) {
			throw new IllegalArgumentException("timestamp is " + timestamp + " but must not be negative");
		}
		return this.evictions.evictBefore(timestamp, Long.MAX_VALUE).keys();
	}

	/**
	 * Returns {@code etcd}.
	 * @return the kind
	 */
	@Override
	public String kind() {
		return "etcd";
	}

	/**
	 * Returns the key prefix, the timeout and the retention.
	 * @return the details
	 */
	@Override
	public Map<String, Object> details() {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("keyPrefix", this.keyPrefix);
		details.put("timeout", this.timeout);
		details.put("retention", (this.retention != null) ? this.retention : "none");
		return details;
	}

	/**
	 * Reads the eviction watermark with a linearizable read, which only a cluster with a
	 * leader and a quorum answers.
	 * @return {@code true}
	 * @throws RegistryException when etcd cannot be reached or has no quorum (retryable),
	 * refuses the read, or holds something crid did not write in the watermark key (not
	 * retryable)
	 */
	@Override
	public boolean check() {
		KeyState.of(this.calls.await("read etcd key '" + this.keys.watermarkName() + "'", this.calls.deadline(),
				() -> this.kv.get(this.keys.watermark())), this.keys.watermarkName());
		return true;
	}

	/**
	 * Returns the prefix of the registry's keys.
	 * @return the key prefix
	 */
	public String keyPrefix() {
		return this.keyPrefix;
	}

	/**
	 * Returns how long one registry operation may take.
	 * @return the timeout
	 */
	public Duration timeout() {
		return this.timeout;
	}

	/**
	 * Returns how long the keys of a second are kept before they are evicted.
	 * @return the retention, or {@code null} when keys are never evicted
	 */
	public @Nullable Duration retention() {
		return this.retention;
	}

	@Override
	public String toString() {
		return "EtcdRegistry[keyPrefix=" + this.keyPrefix + "]";
	}

	/**
	 * Builds an {@link EtcdRegistry}. Every setting has a default; {@link #build()}
	 * checks them all and reports every violated rule at once.
	 */
	public static final class Builder {

		private final Client client;

		private String keyPrefix = DEFAULT_KEY_PREFIX;

		private Duration timeout = DEFAULT_TIMEOUT;

		private @Nullable Duration retention = DEFAULT_RETENTION;

		private Builder(Client client) {
			this.client = client;
		}

		/**
		 * Sets the prefix of every key the registry writes; not empty, without control
		 * characters; default {@value EtcdRegistry#DEFAULT_KEY_PREFIX}. Registries (of
		 * services whose IDs may mix) that share a prefix share their sequence numbers;
		 * give each its own prefix for IDs of its own.
		 * @param keyPrefix the key prefix
		 * @return this builder
		 */
		public Builder keyPrefix(String keyPrefix) {
			this.keyPrefix = keyPrefix;
			return this;
		}

		/**
		 * Sets how long one registry operation may take in all, retries under contention
		 * included; positive, at most a day, default 2 seconds. Keep it below the nodes'
		 * allocation timeout: a request that etcd dropped in a leader election ends only
		 * with it.
		 * @param timeout the timeout
		 * @return this builder
		 */
		public Builder timeout(Duration timeout) {
			this.timeout = timeout;
			return this;
		}

		/**
		 * Sets how long the keys of a second are kept: after a reservation, at most every
		 * 24th of this (between a second and an hour), the registry evicts the seconds
		 * older than this; default a day. {@code null} or zero keeps every key; otherwise
		 * at least a second. A node whose clock lags behind the others' by more than this
		 * is refused, so keep it well above any skew the nodes' clocks may have.
		 * @param retention the retention
		 * @return this builder
		 */
		public Builder retention(@Nullable Duration retention) {
			this.retention = retention;
			return this;
		}

		/**
		 * Builds the registry. It does not contact etcd.
		 * @return the registry
		 * @throws InvalidConfigException listing every setting that is out of range
		 */
		public EtcdRegistry build() {
			return new EtcdRegistry(this);
		}

		private Client validate() {
			List<Violation> violations = new ArrayList<>();
			if (this.client == null) {
				violations.add(new Violation("client", null, "must be a jetcd Client"));
			}
			if (this.keyPrefix == null || this.keyPrefix.isEmpty()
					|| this.keyPrefix.chars().anyMatch(Character::isISOControl)) {
				violations
					.add(new Violation("keyPrefix", this.keyPrefix, "must not be empty nor hold control characters"));
			}
			if (this.timeout == null || this.timeout.isNegative() || this.timeout.isZero()
					|| this.timeout.compareTo(MAX_TIMEOUT) > 0) {
				violations.add(new Violation("timeout", this.timeout, "must be in (PT0S, " + MAX_TIMEOUT + "]"));
			}
			if (this.retention != null && !this.retention.isZero()
					&& (this.retention.isNegative() || this.retention.compareTo(Duration.ofSeconds(1)) < 0)) {
				violations.add(new Violation("retention", this.retention,
						"must be at least PT1S (or zero to keep every key)"));
			}
			if (this.client == null || !violations.isEmpty()) {
				throw new InvalidConfigException(violations);
			}
			return this.client;
		}

	}

}

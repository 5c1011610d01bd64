package dev.crid.autoconfigure;

import java.time.Duration;
import java.time.Instant;

import dev.crid.CridLayout;
import dev.crid.CridNode;

import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * The properties that shape a node: those of the default node under {@code crid.*}
 * ({@link CridProperties}), and those of each named node under
 * {@code crid.nodes.<name>.*}, bound on top of a copy of {@code crid.*}. Every default is
 * the one crid-core uses.
 */
public class NodeProperties {

	/**
	 * Instant the ID timestamps count from, as ISO-8601. Must not be in the future. Every
	 * node that shares a registry or reads another's IDs must use the same epoch.
	 */
	private Instant epoch = CridLayout.DEFAULT_EPOCH;

	/**
	 * Bits of an ID that hold the timestamp (whole seconds since the epoch). With the
	 * sequence bits it must add up to 63.
	 */
	private int timestampBits = CridLayout.DEFAULT_TIMESTAMP_BITS;

	/**
	 * Bits of an ID that hold the sequence number within a second. With the timestamp
	 * bits it must add up to 63.
	 */
	private int sequenceBits = CridLayout.DEFAULT_SEQUENCE_BITS;

	/**
	 * Sequence numbers reserved per registry call, in [1, 2^sequence-bits]: the size a
	 * node starts with and comes back to. A node that reserves ahead and still uses its
	 * blocks up faster than the registry answers, or in less than a quarter of a second,
	 * asks for up to 64 times as many. Larger blocks mean fewer registry calls and larger
	 * gaps when a node stops with part of a block unused.
	 */
	private long blockSize = CridNode.DEFAULT_BLOCK_SIZE;

	/**
	 * IDs left in the current block below which the next block is reserved in the
	 * background. Must not exceed the block size; below 1 turns prefetching off. Keep it
	 * at least the peak rate of IDs per second times the registry's latency.
	 */
	private long threshold = CridNode.DEFAULT_THRESHOLD;

	/**
	 * Longest time a caller of nextId() waits for the registry when the block has run
	 * out.
	 */
	private Duration allocationTimeout = CridNode.DEFAULT_ALLOCATION_TIMEOUT;

	/**
	 * How far the node's clock may be from the registry's (the database's) before it
	 * refuses to serve IDs and the health indicator reports DOWN. Measured at every
	 * reservation; registries that do not tell their clock (in-memory, H2, the generic
	 * dialect) are not checked.
	 */
	private Duration maxClockSkew = CridNode.DEFAULT_MAX_CLOCK_SKEW;

	/**
	 * How long the node should serve IDs without its registry, from IDs it keeps in
	 * stock: the IDs it handed out over its last runway; 0 (the default) keeps none
	 * beyond the next block; at most one day. An ID is then handed out up to 1.25 times
	 * the runway after its second.
	 */
	private Duration runway = Duration.ZERO;

	/**
	 * Where the node reserves its blocks.
	 */
	@NestedConfigurationProperty
	private final RegistryProperties registry = new RegistryProperties();

	public Instant getEpoch() {
		return this.epoch;
	}

	public void setEpoch(Instant epoch) {
		this.epoch = epoch;
	}

	public int getTimestampBits() {
		return this.timestampBits;
	}

	public void setTimestampBits(int timestampBits) {
		this.timestampBits = timestampBits;
	}

	public int getSequenceBits() {
		return this.sequenceBits;
	}

	public void setSequenceBits(int sequenceBits) {
		this.sequenceBits = sequenceBits;
	}

	public long getBlockSize() {
		return this.blockSize;
	}

	public void setBlockSize(long blockSize) {
		this.blockSize = blockSize;
	}

	public long getThreshold() {
		return this.threshold;
	}

	public void setThreshold(long threshold) {
		this.threshold = threshold;
	}

	public Duration getAllocationTimeout() {
		return this.allocationTimeout;
	}

	public void setAllocationTimeout(Duration allocationTimeout) {
		this.allocationTimeout = allocationTimeout;
	}

	public Duration getMaxClockSkew() {
		return this.maxClockSkew;
	}

	public void setMaxClockSkew(Duration maxClockSkew) {
		this.maxClockSkew = maxClockSkew;
	}

	public Duration getRunway() {
		return this.runway;
	}

	public void setRunway(Duration runway) {
		this.runway = runway;
	}

	public RegistryProperties getRegistry() {
		return this.registry;
	}

}

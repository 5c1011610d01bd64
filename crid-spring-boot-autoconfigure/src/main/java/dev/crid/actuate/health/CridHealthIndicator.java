package dev.crid.actuate.health;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;

import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.CridStats;
import dev.crid.Registry;
import dev.crid.actuate.RegistryDescription;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Reports whether a {@link CridNode} can get blocks from its registry, and answers within
 * about half a second even when the database hangs: it reports from the node's own state
 * and from a bounded check of the registry that runs on an executor, never from a
 * blocking call of its own.
 *
 * <ul>
 * <li>UP, with details: the registry's kind and {@link Registry#details() details} (for a
 * database its table and dialect), layout, block supply, the last reservation, the clock
 * skew against the registry, and any registry that went back;</li>
 * <li>DOWN, with the error: the database cannot be reached, its table is missing, the
 * check has not answered in time, the node's registry calls failed within the last minute
 * (a clock too far from the registry's, a refused second, a lost connection), with the
 * root cause, or the node's clock has moved so far since the last reservation that it is
 * now further from the registry's than the skew allowed, by
 * {@link CridStats#estimatedClockSkew() estimate}: the node would refuse its next
 * reservation;</li>
 * <li>OUT_OF_SERVICE once the node is closed.</li>
 * </ul>
 *
 * <p>
 * A node with a runway ({@code crid.runway}) that still holds IDs serves without its
 * registry: while it does, a registry it cannot reach leaves it UP, with the error as the
 * detail {@code registryError} and how long its IDs last as {@code runway}; it is DOWN
 * once it holds none.
 *
 * <p>
 * It never reserves a block to find out: the registry is checked with its own
 * {@link Registry#check()} (a database's, that its table can be read), and the rest comes
 * from {@link CridNode#stats()}.
 */
public class CridHealthIndicator extends AbstractHealthIndicator {

	/** How long a health request waits for the registry check. */
	static final Duration CHECK_WAIT = Duration.ofMillis(500);

	/** How long a finished check's answer is reused. */
	static final Duration CHECK_REUSE = Duration.ofSeconds(1);

	/** How long a failed registry call keeps the node DOWN, without a success since. */
	static final Duration RECENT_FAILURE = Duration.ofMinutes(1);

	private final CridNode node;

	private final @Nullable Registry registry;

	/** The check of the registry, or {@code null} when the registry is not known. */
	private final @Nullable BoundedRegistryCheck probe;

	private final Clock clock = Clock.systemUTC();

	/**
	 * Creates an indicator that checks the registry on the common fork-join pool.
	 * @param node the node to report on
	 * @param registry the registry the node reserves its blocks in, or {@code null} if
	 * unknown
	 */
	public CridHealthIndicator(CridNode node, @Nullable Registry registry) {
		this(node, registry, ForkJoinPool.commonPool());
	}

	/**
	 * Creates an indicator.
	 * @param node the node to report on
	 * @param registry the registry the node reserves its blocks in, or {@code null} if
	 * unknown
	 * @param checkExecutor runs the registry checks, one at a time
	 */
	public CridHealthIndicator(CridNode node, @Nullable Registry registry, Executor checkExecutor) {
		super("crid health check failed");
		this.node = node;
		this.registry = registry;
		this.probe = (registry != null) ? new BoundedRegistryCheck(registry, checkExecutor, CHECK_WAIT, CHECK_REUSE)
				: null;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		boolean closed = this.node.isClosed();
		BoundedRegistryCheck.Answer check = (closed || this.probe == null) ? BoundedRegistryCheck.Answer.UNCHECKED
				: this.probe.check();
		CridStats stats = this.node.stats();
		builder.withDetail("registry", RegistryDescription.of(this.registry));
		builder.withDetail("layout", describe(this.node.layout()));
		builder.withDetail("blockSize", this.node.blockSize());
		builder.withDetail("idsLeftInBlock", stats.idsLeftInBlock());
		builder.withDetail("nextBlockReady", stats.nextBlockReady());
		builder.withDetail("idsIssued", stats.idsIssued());
		builder.withDetail("runway", stats.runway().truncatedTo(ChronoUnit.MILLIS).toString());
		if (!this.node.runway().isZero()) {
			builder.withDetail("idsInStock", stats.idsInStock());
		}
		if (stats.lastAllocationTime() != null) {
			builder.withDetail("lastAllocationTime", stats.lastAllocationTime().toString());
		}
		if (stats.clockSkew() != null) {
			builder.withDetail("clockSkew", stats.clockSkew().toString());
			// Never null beside a measured skew.
			builder.withDetail("estimatedClockSkew", String.valueOf(stats.estimatedClockSkew()));
			builder.withDetail("maxClockSkew", this.node.maxClockSkew().toString());
		}
		if (stats.registryWentBack() > 0) {
			builder.withDetail("registryWentBack", stats.registryWentBack());
			builder.withDetail("lastRegistryWentBackTime", String.valueOf(stats.lastRegistryWentBackTime()));
		}
		if (stats.stuckCalls() > 0) {
			builder.withDetail("stuckCalls", stats.stuckCalls());
		}
		if (stats.lastFailure() != null) {
			builder.withDetail("lastFailure", stats.lastFailure());
			builder.withDetail("lastFailureTime", String.valueOf(stats.lastFailureTime()));
			builder.withDetail("consecutiveFailures", stats.consecutiveFailures());
		}
		if (closed) {
			builder.outOfService().withDetail("error", "The CridNode is closed");
		}
		else if (check.failure() != null) {
			registryDown(builder, stats, check.failure().getClass().getName() + ": " + check.failure().getMessage());
		}
		else if (check.unansweredFor() != null) {
			registryDown(builder, stats, "The registry has not answered its health check for " + check.unansweredFor());
		}
		else if (failingRecently(stats)) {
			registryDown(builder, stats,
					"The last " + stats.consecutiveFailures() + " registry call(s) failed: " + stats.lastFailure());
		}
		else if (clockTooFar(stats)) {
			// clockTooFar found an estimate.
			Duration skew = Objects.requireNonNull(stats.estimatedClockSkew()).truncatedTo(ChronoUnit.MILLIS);
			builder.down()
				.withDetail("error",
						"This node's clock is now " + describeSkew(skew) + " the registry's, by " + "estimate ("
								+ stats.clockSkew() + " measured at the last reservation, corrected by how far "
								+ "this node's clock has moved since), more than the " + this.node.maxClockSkew()
								+ " allowed (crid.max-clock-skew): the node will refuse its next reservation; set the "
								+ "node's clock right (NTP)");
		}
		else {
			builder.up();
		}
	}

	/**
	 * DOWN for a registry the node cannot reach, unless its runway still holds IDs to
	 * serve without it.
	 */
	private void registryDown(Health.Builder builder, CridStats stats, String error) {
		boolean ridingOut = !this.node.runway().isZero() && stats.idsLeftInBlock() + stats.idsInStock() > 0;
		if (ridingOut) {
			builder.up().withDetail("registryError", error);
		}
		else {
			builder.down().withDetail("error", error);
		}
	}

	private boolean failingRecently(CridStats stats) {
		Instant lastFailure = stats.lastFailureTime();
		return stats.consecutiveFailures() > 0 && lastFailure != null
				&& Duration.between(lastFailure, this.clock.instant()).compareTo(RECENT_FAILURE) < 0;
	}

	private boolean clockTooFar(CridStats stats) {
		Duration skew = stats.estimatedClockSkew();
		return skew != null && skew.abs().compareTo(this.node.maxClockSkew()) > 0;
	}

	private static String describeSkew(Duration skew) {
		return skew.isNegative() ? skew.negated() + " ahead of" : skew + " behind";
	}

	static Map<String, Object> describe(CridLayout layout) {
		Map<String, Object> description = new LinkedHashMap<>();
		description.put("epoch", layout.epoch().toString());
		description.put("timestampBits", layout.timestampBits());
		description.put("sequenceBits", layout.sequenceBits());
		return description;
	}

}

package dev.crid.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.CridStats;
import dev.crid.Registry;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Reports whether a {@link CridNode} can get blocks from its registry. UP with details (registry kind,
 * dialect and table, layout, IDs left in the block, last allocation); DOWN with the error when the
 * database registry cannot be reached or its table is missing, or, for a registry that cannot be checked,
 * when the node's last registry call failed; OUT_OF_SERVICE once the node is closed.
 *
 * <p>It never reserves a block to find out: the database registry is checked with
 * {@code JdbcTemplateRegistry.verifySchema()}, and the rest comes from {@link CridNode#stats()}.
 */
public class CridHealthIndicator extends AbstractHealthIndicator {

	private final CridNode node;

	private final RegistryInspector registry;

	/**
	 * Creates an indicator.
	 * @param node the node to report on
	 * @param registry the registry the node reserves its blocks in, or {@code null} if unknown
	 */
	public CridHealthIndicator(CridNode node, Registry registry) {
		super("crid health check failed");
		this.node = node;
		this.registry = RegistryInspector.of(registry);
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		RuntimeException failure = null;
		boolean checked = false;
		if (!this.node.isClosed()) {
			try {
				checked = this.registry.check();
			}
			catch (RuntimeException ex) {
				failure = ex;
			}
		}
		CridStats stats = this.node.stats();
		builder.withDetail("registry", this.registry.describe(failure == null || this.registry.answered(failure)));
		builder.withDetail("layout", describe(this.node.layout()));
		builder.withDetail("blockSize", this.node.blockSize());
		builder.withDetail("idsLeftInBlock", stats.idsLeftInBlock());
		builder.withDetail("nextBlockReady", stats.nextBlockReady());
		builder.withDetail("idsIssued", stats.idsIssued());
		if (stats.lastAllocationTime() != null) {
			builder.withDetail("lastAllocationTime", stats.lastAllocationTime().toString());
		}
		if (stats.lastFailure() != null) {
			builder.withDetail("lastFailure", stats.lastFailure());
			builder.withDetail("lastFailureTime", String.valueOf(stats.lastFailureTime()));
			builder.withDetail("consecutiveFailures", stats.consecutiveFailures());
		}
		if (this.node.isClosed()) {
			builder.outOfService().withDetail("error", "The CridNode is closed");
		}
		else if (failure != null) {
			builder.down(failure);
		}
		else if (!checked && stats.consecutiveFailures() > 0) {
			builder.down()
				.withDetail("error", "The last " + stats.consecutiveFailures() + " registry call(s) failed: "
						+ stats.lastFailure());
		}
		else {
			builder.up();
		}
	}

	static Map<String, Object> describe(CridLayout layout) {
		Map<String, Object> description = new LinkedHashMap<>();
		description.put("epoch", layout.epoch().toString());
		description.put("timestampBits", layout.timestampBits());
		description.put("sequenceBits", layout.sequenceBits());
		return description;
	}

}

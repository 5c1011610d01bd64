package dev.crid.autoconfigure.slices.web;

import java.time.Duration;

import dev.crid.CridNode;
import dev.crid.InMemoryRegistry;
import dev.crid.Registry;
import dev.crid.RegistryException;

import org.springframework.context.annotation.Bean;

/**
 * An in-memory registry that a test can take down, and a node on it that goes back to the
 * registry for every ID and gives up after a short allocation timeout: as an application
 * whose database is down sees it. The web slice tests import {@link Beans}.
 */
public class SwitchableRegistry implements Registry {

	private final Registry registry = new InMemoryRegistry();

	private volatile boolean down;

	@Override
	public long allocate(long timestamp, long blockSize) {
		if (this.down) {
			throw new RegistryException("the registry database is down (test)", null);
		}
		return this.registry.allocate(timestamp, blockSize);
	}

	/**
	 * Sets whether allocations fail.
	 * @param down {@code true} to fail every allocation
	 */
	public void setDown(boolean down) {
		this.down = down;
	}

	/**
	 * The registry and a node on it, for {@code @Import}.
	 */
	public static class Beans {

		@Bean
		SwitchableRegistry switchableRegistry() {
			return new SwitchableRegistry();
		}

		@Bean(destroyMethod = "close")
		CridNode cridNode(SwitchableRegistry registry) {
			return CridNode.builder(registry)
				.blockSize(1)
				.threshold(0)
				.allocationTimeout(Duration.ofMillis(200))
				.build();
		}

	}

}

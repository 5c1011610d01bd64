package dev.crid.autoconfigure.slices.web;

import java.time.Duration;

import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.InMemoryRegistry;
import dev.crid.LayoutMismatchException;
import dev.crid.Registry;
import dev.crid.RegistryException;

import org.springframework.context.annotation.Bean;

/**
 * An in-memory registry that a test can take down, or make refuse for good, and a node on
 * it that goes back to the registry for every ID and gives up after an allocation timeout
 * of a second: as an application whose database is down sees it. The timeout is short
 * enough for a test that waits it out, and long enough for a loaded machine to start the
 * node's thread and run its first reservation. The web slice tests import {@link Beans}.
 */
public class SwitchableRegistry implements Registry {

	private final Registry registry = new InMemoryRegistry();

	private volatile State state = State.UP;

	@Override
	public long allocate(long timestamp, long blockSize) {
		return switch (this.state) {
			case DOWN -> throw new RegistryException("the registry database is down (test)", null);
			case REFUSING -> throw new RegistryException("the registry table is missing (test)", null, false);
			case UP, OTHER_LAYOUT -> this.registry.allocate(timestamp, blockSize);
		};
	}

	@Override
	public void checkLayout(CridLayout layout) {
		if (this.state == State.OTHER_LAYOUT) {
			throw new LayoutMismatchException("SwitchableRegistry", CridLayout.of(layout.epoch(), 32, 31), layout);
		}
	}

	/**
	 * Sets whether reservations fail, as a database that is down.
	 * @param down {@code true} to fail every reservation
	 */
	public void setDown(boolean down) {
		setState(down ? State.DOWN : State.UP);
	}

	/**
	 * Sets how the registry answers from now on.
	 * @param state how it answers
	 */
	public void setState(State state) {
		this.state = state;
	}

	/**
	 * How the registry answers.
	 */
	public enum State {

		/** It reserves blocks. */
		UP,

		/** It fails, as a database that is down: a failure that passes. */
		DOWN,

		/** It refuses for good, as a database without the registry table. */
		REFUSING,

		/** It refuses the node's layout, as one first used with another. */
		OTHER_LAYOUT

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
				.allocationTimeout(Duration.ofSeconds(1))
				.build();
		}

	}

}

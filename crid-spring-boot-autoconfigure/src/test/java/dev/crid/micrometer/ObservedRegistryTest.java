package dev.crid.micrometer;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

import dev.crid.CridLayout;
import dev.crid.InMemoryRegistry;
import dev.crid.LayoutMismatchException;
import dev.crid.Registry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ObservedRegistry}: one observation per reservation, on the calling
 * thread and in the caller's observation, tagged with the kind the registry names itself,
 * and every other method forwarded.
 */
class ObservedRegistryTest {

	private final TestObservationRegistry observations = TestObservationRegistry.create();

	@Test
	void observesOnTheCallingThreadInsideTheCallersObservation() {
		AtomicReference<Thread> reservingThread = new AtomicReference<>();
		AtomicReference<Observation> current = new AtomicReference<>();
		Registry seen = (timestamp, blockSize) -> {
			reservingThread.set(Thread.currentThread());
			current.set(this.observations.getCurrentObservation());
			return 0;
		};
		Registry observed = new ObservedRegistry(seen, this.observations, "orders");
		Observation request = Observation.start("http.server.requests", this.observations);
		try (Observation.Scope scope = request.openScope()) {
			assertThat(observed.reserve(42, 100).start()).isZero();
		}
		request.stop();
		assertThat(reservingThread.get()).isSameAs(Thread.currentThread());
		assertThat(current.get().getContext().getName()).isEqualTo("crid.registry.reserve");
		assertThat(this.observations).hasObservationWithNameEqualTo("crid.registry.reserve")
			.that()
			.hasParentObservationContextMatching((parent) -> parent.getName().equals("http.server.requests"))
			.hasLowCardinalityKeyValue("crid.node", "orders")
			.hasHighCardinalityKeyValue("crid.timestamp", "42")
			.hasLowCardinalityKeyValue("outcome", "success");
	}

	@Test
	void observesAllocateToo() {
		Registry observed = new ObservedRegistry(new InMemoryRegistry(), this.observations, "default");
		assertThat(observed.allocate(7, 10)).isZero();
		assertThat(observed.allocate(7, 10)).isEqualTo(10);
		assertThat(this.observations).hasNumberOfObservationsWithNameEqualTo("crid.registry.reserve", 2);
	}

	@Test
	void forwardsTheRegistrysClockAndLayoutCheck() {
		Instant clock = Instant.parse("2026-12-04T00:00:00Z");
		Registry withClock = new Registry() {

			@Override
			public long allocate(long timestamp, long blockSize) {
				return 5;
			}

			@Override
			public Reservation reserve(long timestamp, long blockSize) {
				return new Reservation(5, clock);
			}

		};
		assertThat(new ObservedRegistry(withClock, this.observations, "default").reserve(1, 1).registryTime())
			.isEqualTo(clock);
		Registry observed = new ObservedRegistry(new InMemoryRegistry(), this.observations, "default");
		observed.checkLayout(CridLayout.DEFAULT);
		assertThatExceptionOfType(LayoutMismatchException.class)
			.isThrownBy(() -> observed.checkLayout(CridLayout.of(CridLayout.DEFAULT_EPOCH, 30, 33)));
	}

	@Test
	void keepsTheDecoratedRegistrysDescription() {
		InMemoryRegistry registry = new InMemoryRegistry();
		assertThat(new ObservedRegistry(registry, this.observations, "default")).hasToString(registry.toString());
	}

	@Test
	void tagsTheKindTheRegistryNamesItself() {
		TestObservationRegistry memory = TestObservationRegistry.create();
		new ObservedRegistry(new InMemoryRegistry(), memory, "default").allocate(1, 1);
		assertThat(memory).hasObservationWithNameEqualTo("crid.registry.reserve")
			.that()
			.hasLowCardinalityKeyValue("crid.registry", "memory");
		Registry own = (timestamp, blockSize) -> 0;
		new ObservedRegistry(own, this.observations, "default").allocate(1, 1);
		assertThat(this.observations).hasObservationWithNameEqualTo("crid.registry.reserve")
			.that()
			.hasLowCardinalityKeyValue("crid.registry", own.kind());
	}

}

package dev.crid.data;

import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.data.relational.core.mapping.RelationalMappingContext;

import dev.crid.CridNode;
import dev.crid.InMemoryRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The R2DBC callback creates Reactor's shared bounded elastic scheduler when it is built,
 * if there is none yet. Otherwise the first saves, on event loops, would create it: when
 * two do so at once, Reactor disposes the copy that lost, which takes a lock on the event
 * loop (BlockHound reports it as a blocking call).
 */
class CridR2dbcCallbackSchedulerTest {

	private final AtomicInteger created = new AtomicInteger();

	private final CridNode node = CridNode.builder(new InMemoryRegistry()).build();

	@BeforeEach
	void countBoundedElasticSchedulers() {
		// Also disposes the shared schedulers, so that the next use creates them anew.
		Schedulers.setFactory(new Schedulers.Factory() {

			@Override
			public Scheduler newBoundedElastic(int threadCap, int queuedTaskCap, ThreadFactory threadFactory,
					int ttlSeconds) {
				CridR2dbcCallbackSchedulerTest.this.created.incrementAndGet();
				return Schedulers.Factory.super.newBoundedElastic(threadCap, queuedTaskCap, threadFactory, ttlSeconds);
			}

			@Override
			public Scheduler newThreadPerTaskBoundedElastic(int threadCap, int queuedTaskCap,
					ThreadFactory threadFactory) {
				CridR2dbcCallbackSchedulerTest.this.created.incrementAndGet();
				return Schedulers.Factory.super.newThreadPerTaskBoundedElastic(threadCap, queuedTaskCap, threadFactory);
			}

		});
	}

	@AfterEach
	void restoreReactorsSchedulers() {
		Schedulers.resetFactory();
		this.node.close();
	}

	@Test
	void theCallbackOfOneNodeCreatesTheBoundedElasticSchedulerWhenBuilt() {
		new CridR2dbcCallback(this.node, new RelationalMappingContext());
		assertThat(this.created).hasValue(1);
	}

	@Test
	void theCallbackOfNamedNodesCreatesTheBoundedElasticSchedulerWhenBuilt() {
		new CridR2dbcCallback(Map.of("default", this.node), new RelationalMappingContext());
		assertThat(this.created).hasValue(1);
	}

	@Test
	void aSecondCallbackCreatesNoOtherScheduler() {
		new CridR2dbcCallback(this.node, new RelationalMappingContext());
		new CridR2dbcCallback(this.node, new RelationalMappingContext());
		assertThat(this.created).hasValue(1);
	}

}

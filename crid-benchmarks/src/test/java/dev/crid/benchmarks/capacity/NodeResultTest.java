package dev.crid.benchmarks.capacity;

import java.util.Map;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NodeResultTest {

	@Test
	void readsBackEveryFieldItWrites() {
		Histogram nextId = new Histogram(2);
		nextId.recordValue(25);
		nextId.recordValue(1_000_000);
		Histogram registry = new Histogram(2);
		registry.recordValue(3_000_000);
		NodeResult written = new NodeResult(7, 2, 10_000, 400_000, 12, 40.0, 1,
				"dev.crid.SequenceOverflowException: x\ty", 41, 1, 3, 410_000, Map.of(100L, 10_000L, 101L, 20_000L), 5,
				2, 20_000, 10_000, 4, 12_000_000, 3, 11_000_000, nextId, registry);

		NodeResult read = NodeResult.fromLine(written.toLine());

		assertThat(read).usingRecursiveComparison()
			.ignoringFields("lastError", "nextIdNanos", "registryNanos")
			.isEqualTo(written);
		assertThat(read.lastError()).isEqualTo("dev.crid.SequenceOverflowException: x y");
		assertThat(read.nextIdNanos()).isEqualTo(nextId);
		assertThat(read.registryNanos()).isEqualTo(registry);
	}

}

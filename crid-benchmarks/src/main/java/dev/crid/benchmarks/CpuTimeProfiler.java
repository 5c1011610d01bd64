package dev.crid.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler ({@code -prof dev.crid.benchmarks.CpuTimeProfiler}) that reports what an
 * operation costs in CPU time of the benchmark threads, which other work on the machine
 * hardly changes, where throughput falls with every process that takes a core. Per
 * iteration: {@code cpu.ns/op}, the benchmark threads' CPU time per operation;
 * {@code cpu.all.ns/op}, the CPU time of every thread of the JVM per operation (where the
 * work runs on other threads, as on the carriers of virtual threads); {@code cpu.share},
 * the share of a core each benchmark thread got; and {@code cpu.others}, the cores that
 * the JVM's other threads (the node's own, the collector's, the compiler's, the carriers)
 * used meanwhile.
 */
public class CpuTimeProfiler implements InternalProfiler {

	private static final String WORKER = "-jmh-worker-";

	private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	private Map<Long, Long> cpuBefore = Map.of();

	private long wallBefore;

	/**
	 * Creates the profiler; JMH calls this.
	 */
	public CpuTimeProfiler() {
		this.threads.setThreadCpuTimeEnabled(true);
	}

	@Override
	public String getDescription() {
		return "CPU time of the benchmark threads per operation, and of the JVM's other threads";
	}

	@Override
	public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
		this.cpuBefore = cpuTimes();
		this.wallBefore = System.nanoTime();
	}

	@Override
	@SuppressWarnings("rawtypes") // JMH's InternalProfiler declares the raw Result
	public List<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
			IterationResult result) {
		long wall = System.nanoTime() - this.wallBefore;
		long workers = 0;
		long workerCpu = 0;
		long otherCpu = 0;
		for (ThreadInfo info : this.threads.getThreadInfo(this.threads.getAllThreadIds())) {
			if (info == null) {
				continue;
			}
			long cpu = this.threads.getThreadCpuTime(info.getThreadId());
			if (cpu < 0) {
				continue;
			}
			long used = cpu - this.cpuBefore.getOrDefault(info.getThreadId(), 0L);
			if (info.getThreadName().contains(WORKER)) {
				workers++;
				workerCpu += used;
			}
			else {
				otherCpu += used;
			}
		}
		long ops = result.getMetadata().getMeasuredOps();
		return List.of(
				new ScalarResult("cpu.ns/op", (ops > 0) ? (double) workerCpu / ops : Double.NaN, "ns/op",
						AggregationPolicy.AVG),
				new ScalarResult("cpu.all.ns/op", (ops > 0) ? (double) (workerCpu + otherCpu) / ops : Double.NaN,
						"ns/op", AggregationPolicy.AVG),
				new ScalarResult("cpu.share", (workers > 0) ? (double) workerCpu / workers / wall : Double.NaN, "cores",
						AggregationPolicy.AVG),
				new ScalarResult("cpu.others", (double) otherCpu / wall, "cores", AggregationPolicy.AVG));
	}

	private Map<Long, Long> cpuTimes() {
		Map<Long, Long> times = new HashMap<>();
		for (long id : this.threads.getAllThreadIds()) {
			long cpu = this.threads.getThreadCpuTime(id);
			if (cpu >= 0) {
				times.put(id, cpu);
			}
		}
		return times;
	}

}

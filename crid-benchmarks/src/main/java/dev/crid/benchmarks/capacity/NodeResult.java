package dev.crid.benchmarks.capacity;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.zip.DataFormatException;

import org.HdrHistogram.Histogram;

/**
 * What one node did in the measurement, as a worker process writes it (one line, fields
 * separated by tabs, histograms compressed and in Base64) and the parent reads it back.
 *
 * @param index the node's number among all nodes of the scenario
 * @param jvm the worker process that ran it
 * @param rate IDs per second asked of it
 * @param ids IDs it handed out in the measurement
 * @param dropped IDs its schedule asked for in the measurement that it did not hand out
 * in time, so its caller dropped them
 * @param seconds how long the measurement lasted
 * @param errors calls to {@code nextId()} that threw
 * @param lastError the last of them, or empty
 * @param registryCalls its registry calls
 * @param registryFailures those that failed
 * @param usedUp answers that said the second was used up
 * @param reserved sequence numbers the registry reserved for it
 * @param reservedPerSecond the same per second of the registry (epoch-relative)
 * @param stalls calls that waited for a block ({@code CridStats.stalls()})
 * @param synchronousAllocations registry calls made while callers waited
 * @param allocationSize what it asked the registry for at a time when the measurement
 * ended
 * @param prefetchThreshold its prefetch threshold then
 * @param lateTicks ticks of its driver that started more than 10 ms late
 * @param maxLatenessNanos the latest start of a tick of its driver
 * @param lateWakeUps wake-ups of its driver more than 10 ms after their tick
 * @param maxWakeUpNanos the latest wake-up of its driver after its tick
 * @param nextIdNanos the sampled durations of its {@code nextId()} calls
 * @param registryNanos the durations of its registry calls
 */
record NodeResult(int index, int jvm, long rate, long ids, long dropped, double seconds, long errors, String lastError,
		long registryCalls, long registryFailures, long usedUp, long reserved, Map<Long, Long> reservedPerSecond,
		long stalls, long synchronousAllocations, long allocationSize, long prefetchThreshold, long lateTicks,
		long maxLatenessNanos, long lateWakeUps, long maxWakeUpNanos, Histogram nextIdNanos, Histogram registryNanos) {

	String toLine() {
		StringJoiner line = new StringJoiner("\t");
		line.add(Integer.toString(this.index)).add(Integer.toString(this.jvm)).add(Long.toString(this.rate));
		line.add(Long.toString(this.ids))
			.add(Long.toString(this.dropped))
			.add(Double.toString(this.seconds))
			.add(Long.toString(this.errors));
		line.add(this.lastError.isEmpty() ? "-" : this.lastError.replaceAll("\\s+", " "));
		line.add(Long.toString(this.registryCalls)).add(Long.toString(this.registryFailures));
		line.add(Long.toString(this.usedUp)).add(Long.toString(this.reserved));
		StringJoiner perSecond = new StringJoiner(",");
		this.reservedPerSecond.forEach((second, numbers) -> perSecond.add(second + ":" + numbers));
		line.add(this.reservedPerSecond.isEmpty() ? "-" : perSecond.toString());
		line.add(Long.toString(this.stalls)).add(Long.toString(this.synchronousAllocations));
		line.add(Long.toString(this.allocationSize)).add(Long.toString(this.prefetchThreshold));
		line.add(Long.toString(this.lateTicks)).add(Long.toString(this.maxLatenessNanos));
		line.add(Long.toString(this.lateWakeUps)).add(Long.toString(this.maxWakeUpNanos));
		line.add(encode(this.nextIdNanos)).add(encode(this.registryNanos));
		return line.toString();
	}

	static NodeResult fromLine(String line) {
		String[] f = line.split("\t", -1);
		if (f.length != 23) {
			throw new IllegalArgumentException("A node's result has 23 fields, but this has " + f.length + ": " + line);
		}
		Map<Long, Long> perSecond = new TreeMap<>();
		if (!f[12].equals("-")) {
			for (String entry : f[12].split(",")) {
				String[] pair = entry.split(":");
				perSecond.put(Long.parseLong(pair[0]), Long.parseLong(pair[1]));
			}
		}
		return new NodeResult(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Long.parseLong(f[2]),
				Long.parseLong(f[3]), Long.parseLong(f[4]), Double.parseDouble(f[5]), Long.parseLong(f[6]),
				f[7].equals("-") ? "" : f[7], Long.parseLong(f[8]), Long.parseLong(f[9]), Long.parseLong(f[10]),
				Long.parseLong(f[11]), perSecond, Long.parseLong(f[13]), Long.parseLong(f[14]), Long.parseLong(f[15]),
				Long.parseLong(f[16]), Long.parseLong(f[17]), Long.parseLong(f[18]), Long.parseLong(f[19]),
				Long.parseLong(f[20]), decode(f[21]), decode(f[22]));
	}

	private static String encode(Histogram histogram) {
		ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
		histogram.encodeIntoCompressedByteBuffer(buffer);
		buffer.flip();
		byte[] bytes = new byte[buffer.remaining()];
		buffer.get(bytes);
		return Base64.getEncoder().encodeToString(bytes);
	}

	private static Histogram decode(String text) {
		try {
			return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(text)), 0);
		}
		catch (DataFormatException ex) {
			throw new IllegalArgumentException("Not a compressed histogram: " + text, ex);
		}
	}

}

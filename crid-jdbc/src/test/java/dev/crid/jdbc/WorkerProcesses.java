package dev.crid.jdbc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.crid.testsupport.FaultLoad;

/**
 * Starts {@link IssuingWorker} processes and reads what they wrote: their ID files and
 * the last status line of their logs.
 */
final class WorkerProcesses {

	private static final Pattern STATUS = Pattern
		.compile("status issued=(\\d+) failures=(\\d+) longestCallMs=(\\d+) laterFailures=(\\d+) longestPauseMs=(\\d+) "
				+ "longestStallMs=(\\d+) stalls=(\\d+)");

	private WorkerProcesses() {
	}

	/**
	 * Starts a worker process on this JVM's class path, its output and errors going to
	 * {@code log}.
	 * @param worker the worker's main class, {@link IssuingWorker} or
	 * {@link UniquenessWorker}
	 * @param heap the worker's -Xmx, for example {@code 256m}
	 * @param arguments the worker's arguments (see its class)
	 */
	static Process start(Class<?> worker, String heap, List<String> arguments, Path log) throws IOException {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<String> command = new ArrayList<>(List.of(java, "-Xmx" + heap, "-XX:+UseSerialGC",
				"-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), worker.getName()));
		command.addAll(arguments);
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
	}

	/**
	 * Returns how many whole IDs a file holds (a killed writer may have left a torn last
	 * one).
	 */
	static long count(Path file) throws IOException {
		return Files.exists(file) ? Files.size(file) / Long.BYTES : 0;
	}

	/** Reads every whole ID of the files into one array, unsorted. */
	static long[] readAll(List<Path> files) throws IOException {
		long total = 0;
		for (Path file : files) {
			total += count(file);
		}
		if (total > Integer.MAX_VALUE - 8) {
			throw new IllegalStateException(total + " IDs do not fit in one array");
		}
		long[] ids = new long[(int) total];
		int filled = 0;
		ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
		for (Path file : files) {
			long whole = count(file) * Long.BYTES;
			try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
				for (long left = whole; left > 0;) {
					buffer.clear();
					buffer.limit((int) Math.min(buffer.capacity(), left));
					while (buffer.hasRemaining()) {
						if (channel.read(buffer) < 0) {
							throw new IOException(file + " ended before its " + whole + " bytes");
						}
					}
					buffer.flip();
					LongBuffer longs = buffer.asLongBuffer();
					int available = longs.remaining();
					longs.get(ids, filled, available);
					filled += available;
					left -= buffer.limit();
				}
			}
		}
		return (filled == ids.length) ? ids : Arrays.copyOf(ids, filled);
	}

	/**
	 * Returns issued, failures, longest call (ms), failures after a thread's first ID,
	 * the longest pause between two IDs of a thread (ms) and the process's longest stall
	 * (ms, see {@link IssuingWorker}), and the calls that waited for the registry, from
	 * the last status line of a log, or zeros.
	 */
	static long[] lastStatus(Path log) throws IOException {
		long[] status = new long[7];
		if (!Files.exists(log)) {
			return status;
		}
		for (String line : Files.readAllLines(log)) {
			Matcher matcher = STATUS.matcher(line);
			if (matcher.find()) {
				for (int i = 0; i < status.length; i++) {
					status[i] = Long.parseLong(matcher.group(i + 1));
				}
			}
		}
		return status;
	}

	/**
	 * Counts the IDs and the duplicates among every whole ID of the files, with a bounded
	 * heap whatever their number: routes each ID by a hash of its value (so equal IDs
	 * meet) into partitions of about {@code partitionSize} IDs on disk under
	 * {@code scratch}, then sorts one partition at a time.
	 * @return the IDs counted and the duplicates found
	 */
	static long[] countDuplicates(List<Path> files, Path scratch, int partitionSize) throws IOException {
		long total = 0;
		for (Path file : files) {
			total += count(file);
		}
		int partitions = (int) Math.max(1, (total + partitionSize - 1) / partitionSize);
		if (partitions == 1) {
			long[] ids = readAll(files);
			Arrays.sort(ids);
			return new long[] { ids.length, FaultLoad.duplicates(ids) };
		}
		List<Path> parts = new ArrayList<>();
		List<FileChannel> channels = new ArrayList<>();
		List<ByteBuffer> buffers = new ArrayList<>();
		try {
			for (int p = 0; p < partitions; p++) {
				Path part = scratch.resolve("partition-" + p + ".bin");
				parts.add(part);
				channels.add(FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
						StandardOpenOption.TRUNCATE_EXISTING));
				buffers.add(ByteBuffer.allocate(1 << 16));
			}
			ByteBuffer in = ByteBuffer.allocateDirect(1 << 20);
			for (Path file : files) {
				long whole = count(file) * Long.BYTES;
				try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
					for (long left = whole; left > 0;) {
						in.clear();
						in.limit((int) Math.min(in.capacity(), left));
						while (in.hasRemaining()) {
							if (channel.read(in) < 0) {
								throw new IOException(file + " ended before its " + whole + " bytes");
							}
						}
						in.flip();
						left -= in.limit();
						while (in.hasRemaining()) {
							long id = in.getLong();
							int p = (int) Math.floorMod(mix(id), (long) partitions);
							ByteBuffer out = buffers.get(p);
							out.putLong(id);
							if (!out.hasRemaining()) {
								drain(out, channels.get(p));
							}
						}
					}
				}
			}
			for (int p = 0; p < partitions; p++) {
				drain(buffers.get(p), channels.get(p));
			}
		}
		finally {
			for (FileChannel channel : channels) {
				channel.close();
			}
		}
		long counted = 0;
		long duplicates = 0;
		for (Path part : parts) {
			long[] ids = readAll(List.of(part));
			Files.delete(part);
			Arrays.sort(ids);
			counted += ids.length;
			duplicates += FaultLoad.duplicates(ids);
		}
		return new long[] { counted, duplicates };
	}

	private static void drain(ByteBuffer buffer, FileChannel channel) throws IOException {
		buffer.flip();
		while (buffer.hasRemaining()) {
			channel.write(buffer);
		}
		buffer.clear();
	}

	/**
	 * Spreads IDs that differ in a few bits over every partition (the finalizer of
	 * SplitMix64).
	 */
	private static long mix(long value) {
		long z = value;
		z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
		z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
		return z ^ (z >>> 31);
	}

}

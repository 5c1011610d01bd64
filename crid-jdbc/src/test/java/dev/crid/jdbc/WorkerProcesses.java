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

/**
 * Starts {@link IssuingWorker} processes and reads what they wrote: their ID files and the last status
 * line of their logs.
 */
final class WorkerProcesses {

	private static final Pattern STATUS = Pattern
		.compile("status issued=(\\d+) failures=(\\d+) longestCallMs=(\\d+)");

	private WorkerProcesses() {
	}

	/**
	 * Starts a worker on this JVM's class path, its output and errors going to {@code log}.
	 * @param heap the worker's -Xmx, for example {@code 256m}
	 * @param arguments the worker's arguments (see {@link IssuingWorker})
	 */
	static Process start(String heap, List<String> arguments, Path log) throws IOException {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<String> command = new ArrayList<>(List.of(java, "-Xmx" + heap, "-XX:+UseSerialGC",
				"-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), IssuingWorker.class.getName()));
		command.addAll(arguments);
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
	}

	/** Returns how many whole IDs a file holds (a killed writer may have left a torn last one). */
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

	/** Returns issued, failures and longest call (ms) from the last status line of a log, or zeros. */
	static long[] lastStatus(Path log) throws IOException {
		long[] status = new long[3];
		if (!Files.exists(log)) {
			return status;
		}
		for (String line : Files.readAllLines(log)) {
			Matcher matcher = STATUS.matcher(line);
			if (matcher.find()) {
				for (int i = 0; i < 3; i++) {
					status[i] = Long.parseLong(matcher.group(i + 1));
				}
			}
		}
		return status;
	}

	/** Returns how many IDs of a sorted array equal the one before. */
	static long duplicates(long[] sorted) {
		return FaultLoad.duplicates(sorted);
	}

}

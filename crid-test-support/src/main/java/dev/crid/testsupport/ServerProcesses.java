package dev.crid.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What the clusters that tests start from the machine's server binaries share: free
 * loopback ports, running a server as its own user when the tests run as root (database
 * servers refuse root, or misbehave under it), and deleting what a cluster left behind.
 */
public final class ServerProcesses {

	private ServerProcesses() {
	}

	/**
	 * Returns a loopback port that is free now.
	 * @return the port
	 * @throws IOException if no port can be had
	 */
	public static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	/**
	 * Runs a start of servers on ports found free ({@link #freePort()}), and runs it
	 * again, three times in all at most, when it failed because another process (the
	 * servers of another build, say) took a port before a server bound it: when the
	 * message of the {@link IllegalStateException} it failed with holds one of
	 * {@code takenSigns}. A start run again must find its ports afresh.
	 * @param <T> what the start returns
	 * @param start the start
	 * @param takenSigns what the servers say of a port taken
	 * @return what the start that succeeded returned
	 * @throws IOException as the start throws it
	 * @throws InterruptedException if interrupted
	 */
	public static <T> T startAgainIfAPortWasTaken(Start<T> start, String... takenSigns)
			throws IOException, InterruptedException {
		for (int attempt = 1;; attempt++) {
			try {
				return start.run();
			}
			catch (IllegalStateException ex) {
				String message = String.valueOf(ex.getMessage());
				if (attempt == 3 || Arrays.stream(takenSigns).noneMatch(message::contains)) {
					throw ex;
				}
			}
		}
	}

	/**
	 * Whether the tests run as root, and so must start servers as another user.
	 * @return whether this JVM runs as root
	 */
	public static boolean runsAsRoot() {
		return "root".equals(System.getProperty("user.name"));
	}

	/**
	 * Returns the command that runs a program as {@code user} when the tests run as root,
	 * else as it is. The program replaces the command's process ({@code setpriv} execs
	 * it), so a {@link Process} started with it is the program itself, and killing it
	 * kills the program.
	 * @param user the user the server runs as
	 * @param command the program and its arguments
	 * @return the command to start
	 */
	public static List<String> asUser(String user, List<String> command) {
		if (!runsAsRoot()) {
			return command;
		}
		List<String> asUser = new ArrayList<>(
				List.of("setpriv", "--reuid=" + user, "--regid=" + user, "--init-groups", "--"));
		asUser.addAll(command);
		return asUser;
	}

	/**
	 * Gives a directory and everything in it to {@code user} when the tests run as root.
	 * @param user the user the server runs as
	 * @param directory the directory
	 * @throws IOException if {@code chown} cannot be started
	 * @throws InterruptedException if interrupted while waiting for it
	 */
	public static void giveTo(String user, Path directory) throws IOException, InterruptedException {
		if (runsAsRoot()) {
			run(Duration.ofMinutes(1), List.of("chown", "-R", user + ":", directory.toString()));
		}
	}

	/**
	 * Runs a command to its end, and fails with its output if it fails or outlasts the
	 * timeout.
	 * @param timeout how long the command may run
	 * @param command the program and its arguments
	 * @throws IOException if the command cannot be started
	 * @throws InterruptedException if interrupted while waiting for it
	 */
	public static void run(Duration timeout, List<String> command) throws IOException, InterruptedException {
		Path output = Files.createTempFile("crid-server-", ".out");
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.start();
			if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				process.destroyForcibly();
				throw new IllegalStateException(String.join(" ", command) + " did not end within " + timeout);
			}
			if (process.exitValue() != 0) {
				throw new IllegalStateException(String.join(" ", command) + " failed with status " + process.exitValue()
						+ ":\n" + Files.readString(output));
			}
		}
		finally {
			Files.deleteIfExists(output);
		}
	}

	/**
	 * Kills a process and every process it started with SIGKILL, and waits for it to end.
	 * @param process the process
	 * @throws InterruptedException if interrupted while waiting
	 */
	public static void kill(Process process) throws InterruptedException {
		process.descendants().forEach(ProcessHandle::destroyForcibly);
		process.destroyForcibly();
		process.waitFor(30, TimeUnit.SECONDS);
	}

	/**
	 * Deletes a directory and everything in it.
	 * @param directory the directory
	 * @throws IOException if a file cannot be deleted
	 */
	public static void deleteTree(Path directory) throws IOException {
		if (!Files.exists(directory)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> {
				try {
					Files.delete(path);
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
		}
		catch (UncheckedIOException ex) {
			throw ex.getCause();
		}
	}

	/**
	 * A start of servers, which fails with an {@link IllegalStateException} saying why.
	 *
	 * @param <T> what it returns
	 */
	@FunctionalInterface
	public interface Start<T> {

		/**
		 * Starts the servers.
		 * @return what the caller needs of them
		 * @throws IOException if a file or process fails
		 * @throws InterruptedException if interrupted
		 */
		T run() throws IOException, InterruptedException;

	}

}

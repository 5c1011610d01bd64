package dev.crid.jdbc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import dev.crid.testsupport.ServerProcesses;

/**
 * A PostgreSQL primary and a streaming standby of its own, made with the server binaries
 * installed on the machine ({@code initdb}, {@code pg_basebackup}, {@code pg_ctl}) in a
 * temporary directory, on free loopback ports, run as the {@code postgres} user when the
 * tests run as root (the server refuses to run as root). For tests that kill the primary
 * and promote the standby. {@link #close()} stops both and deletes everything.
 */
final class PostgreSqlCluster implements AutoCloseable {

	private static final String SERVER_USER = "postgres";

	private final Path bin;

	private final Path directory;

	private final Path primary;

	private final Path standby;

	private int primaryPort;

	private int standbyPort;

	private PostgreSqlCluster(Path bin, Path directory) {
		this.bin = bin;
		this.directory = directory;
		this.primary = directory.resolve("primary");
		this.standby = directory.resolve("standby");
	}

	/**
	 * The directory of the newest installed server binaries, or {@code null} when none is
	 * installed.
	 */
	static Path binaries() {
		Path installed = Path.of("/usr/lib/postgresql");
		if (!Files.isDirectory(installed)) {
			return null;
		}
		try (Stream<Path> versions = Files.list(installed)) {
			return versions.map((version) -> version.resolve("bin"))
				.filter((bin) -> Files.isExecutable(bin.resolve("initdb")))
				.max(Comparator.comparing((bin) -> Integer.parseInt(bin.getParent().getFileName().toString())))
				.orElse(null);
		}
		catch (IOException | NumberFormatException ex) {
			return null;
		}
	}

	/**
	 * Starts a primary, and a standby that streams from it through
	 * {@code replicationPort} when that is not 0 (a proxy in front of the primary,
	 * started once the primary's port is known) or directly.
	 * @param synchronous whether a commit on the primary waits for the standby to have it
	 * @param replicationVia given the primary's port, returns the port the standby
	 * connects to
	 */
	static PostgreSqlCluster start(boolean synchronous, java.util.function.IntUnaryOperator replicationVia)
			throws IOException, InterruptedException {
		Path bin = binaries();
		if (bin == null) {
			throw new IllegalStateException("No PostgreSQL server binaries under /usr/lib/postgresql");
		}
		Path directory = Files.createTempDirectory("crid-failover-");
		PostgreSqlCluster cluster = new PostgreSqlCluster(bin, directory);
		try {
			cluster.init(synchronous, replicationVia);
			return cluster;
		}
		catch (IOException | InterruptedException | RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	/**
	 * Makes and starts the primary, then makes the standby from it and starts it, each on
	 * a free port. The servers log in English ({@code lc_messages}), whatever the
	 * machine's locale, so that {@link #startOnFreePort} can tell a port taken from
	 * another failure.
	 */
	private void init(boolean synchronous, java.util.function.IntUnaryOperator replicationVia)
			throws IOException, InterruptedException {
		ServerProcesses.giveTo(SERVER_USER, this.directory);
		run("initdb", "-D", this.primary.toString(), "-U", "postgres", "--auth=trust", "--no-sync");
		Files.writeString(this.primary.resolve("postgresql.conf"), String.join("\n", "listen_addresses = '127.0.0.1'",
				"unix_socket_directories = '" + this.directory + "'", "wal_level = replica", "max_wal_senders = 4",
				"fsync = off", "synchronous_standby_names = '" + (synchronous ? "standby" : "") + "'",
				"lc_messages = 'C'", ""), java.nio.file.StandardOpenOption.APPEND);
		this.primaryPort = startOnFreePort(this.primary);
		int replicationPort = replicationVia.applyAsInt(this.primaryPort);
		run("pg_basebackup", "-D", this.standby.toString(), "-R", "-X", "stream", "-d",
				"host=127.0.0.1 port=" + replicationPort + " user=postgres application_name=standby");
		// Once promoted, the standby has no standby of its own to wait for.
		Files.writeString(this.standby.resolve("postgresql.conf"), "synchronous_standby_names = ''\n",
				java.nio.file.StandardOpenOption.APPEND);
		this.standbyPort = startOnFreePort(this.standby);
	}

	/**
	 * The JDBC URL of both servers, for the one that is primary now: what clients of a
	 * failover pair use.
	 */
	String jdbcUrl() {
		return "jdbc:postgresql://127.0.0.1:" + this.primaryPort + ",127.0.0.1:" + this.standbyPort
				+ "/postgres?targetServerType=primary";
	}

	/** The JDBC URL of the first primary alone. */
	String primaryUrl() {
		return "jdbc:postgresql://127.0.0.1:" + this.primaryPort + "/postgres";
	}

	/** The JDBC URL of the standby alone. */
	String standbyUrl() {
		return "jdbc:postgresql://127.0.0.1:" + this.standbyPort + "/postgres";
	}

	/**
	 * Kills the primary at once, as a crash does: no shutdown checkpoint, no goodbye to
	 * the standby.
	 */
	void killPrimary() throws IOException, InterruptedException {
		run("pg_ctl", "-D", this.primary.toString(), "stop", "-m", "immediate", "-w");
	}

	/** Makes the standby the primary, and waits until it is. */
	void promoteStandby() throws IOException, InterruptedException {
		run("pg_ctl", "-D", this.standby.toString(), "promote", "-w");
	}

	/**
	 * Starts the killed primary again, on its own: it recovers what it had committed, and
	 * streams from nobody.
	 */
	void restartOldPrimary() throws IOException, InterruptedException {
		startServer(this.primary, this.primaryPort);
	}

	/**
	 * Starts a server on a port found free, and returns the port. Another process (the
	 * servers of another build, say) may take the port before the server binds it: the
	 * server is then started again on another port, three times at most. The server alone
	 * starts again, its data as it was: nothing else names its port yet, and the
	 * standby's {@code primary_conninfo} is written once the primary is up.
	 */
	private int startOnFreePort(Path data) throws IOException, InterruptedException {
		return ServerProcesses.startAgainIfAPortWasTaken(() -> {
			int port = ServerProcesses.freePort();
			startServer(data, port);
			return port;
		}, "could not bind", "Address already in use");
	}

	/**
	 * Starts a server on {@code port}, and fails with the last lines this start wrote to
	 * the server's log when it does not start: {@code pg_ctl} itself says no more than
	 * that it could not.
	 */
	private void startServer(Path data, int port) throws IOException, InterruptedException {
		Path log = data.getParent().resolve(data.getFileName() + ".log");
		long logged = Files.exists(log) ? Files.size(log) : 0;
		try {
			run("pg_ctl", "-D", data.toString(), "-l", log.toString(), "-o", "-p " + port + " -k " + this.directory,
					"-w", "-t", "60", "start");
		}
		catch (IllegalStateException ex) {
			throw new IllegalStateException(ex.getMessage() + "\nLast lines of " + log + ":\n" + logTail(log, logged),
					ex);
		}
	}

	/** The last 20 lines written to a log from {@code offset} on. */
	private static String logTail(Path log, long offset) throws IOException {
		if (!Files.exists(log)) {
			return "(no log)";
		}
		byte[] bytes = Files.readAllBytes(log);
		int from = (int) Math.min(offset, bytes.length);
		List<String> lines = new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8).lines().toList();
		return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
	}

	@Override
	public void close() throws IOException, InterruptedException {
		for (Path data : List.of(this.primary, this.standby)) {
			if (Files.exists(data.resolve("postmaster.pid"))) {
				run("pg_ctl", "-D", data.toString(), "stop", "-m", "immediate", "-w");
			}
		}
		ServerProcesses.deleteTree(this.directory);
	}

	/**
	 * Runs a server binary, as the postgres user when this is root, and fails with its
	 * output if it fails.
	 */
	private void run(String program, String... arguments) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(this.bin.resolve(program).toString());
		command.addAll(List.of(arguments));
		ServerProcesses.run(Duration.ofMinutes(2), ServerProcesses.asUser(SERVER_USER, command));
	}

}

package dev.crid.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.etcd.jetcd.Client;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A 3-member etcd cluster of its own, made of the {@code etcd} binary installed on the
 * machine (Debian's {@code etcd-server}): each member a child process on loopback ports
 * of its own, its data in a temporary directory. {@link #close()} stops every member
 * still running by its process and deletes the data. Where the binary is missing the
 * calling test is skipped, except under {@code CI=true}, where that is a failure. Shared
 * by the tests of crid-etcd and of the auto-configuration; jetcd is an optional
 * dependency here, which the modules that start a cluster bring themselves.
 */
public final class EtcdCluster implements AutoCloseable {

	private static final Path BINARY = Path.of("/usr/bin/etcd");

	private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

	private final Path directory;

	private final List<Member> members = new ArrayList<>();

	private EtcdCluster(Path directory) {
		this.directory = directory;
	}

	/**
	 * Where the members keep their data: in memory where the machine offers it, because
	 * an fsync on a disk that other builds keep busy can outlast a registry's timeout,
	 * and no test here restarts the machine.
	 */
	private static Path dataDirectory() throws IOException {
		Path memory = Path.of("/dev/shm");
		return (Files.isDirectory(memory) && Files.isWritable(memory)) ? Files.createTempDirectory(memory, "crid-etcd-")
				: Files.createTempDirectory("crid-etcd-");
	}

	/**
	 * Starts three members and waits until each reports itself healthy (a member is
	 * healthy once the cluster has a leader). A port found free may be taken by another
	 * process before a member binds it (another build's servers, say): the cluster is
	 * then started again on other ports, three times at most.
	 */
	public static EtcdCluster start() throws IOException, InterruptedException {
		requireBinary();
		return ServerProcesses.startAgainIfAPortWasTaken(EtcdCluster::startOnce, "address already in use");
	}

	private static EtcdCluster startOnce() throws IOException, InterruptedException {
		EtcdCluster cluster = new EtcdCluster(dataDirectory());
		try {
			for (int i = 1; i <= 3; i++) {
				cluster.members.add(new Member("m" + i, ServerProcesses.freePort(), ServerProcesses.freePort()));
			}
			String initialCluster = cluster.members.stream()
				.map((member) -> member.name + "=" + member.peerUrl())
				.collect(Collectors.joining(","));
			String token = "crid-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
			for (Member member : cluster.members) {
				member.start(cluster.directory, initialCluster, token);
			}
			for (Member member : cluster.members) {
				cluster.awaitHealthy(member);
			}
			return cluster;
		}
		catch (IOException | InterruptedException | RuntimeException | Error ex) {
			cluster.close();
			throw ex;
		}
	}

	/** Skips the calling test where the binary is missing, or fails it under CI. */
	public static void requireBinary() {
		if (Files.isExecutable(BINARY)) {
			return;
		}
		String missing = "No etcd binary at " + BINARY + ": install Debian's etcd-server package (apt-get install "
				+ "etcd-server) to run the etcd registry's tests";
		if ("true".equalsIgnoreCase(System.getenv("CI"))) {
			Assertions.fail(missing + " (CI=true: a missing etcd is a failure)");
		}
		Assumptions.abort(missing);
	}

	/** The client URLs of every member, running or not. */
	public List<String> endpoints() {
		return this.members.stream().map(Member::clientUrl).toList();
	}

	/** The client port of one member. */
	public int clientPort(int member) {
		return this.members.get(member).clientPort;
	}

	/** A client of every member. */
	public Client client() {
		return Client.builder().endpoints(endpoints().toArray(String[]::new)).build();
	}

	/** A client of one member only. */
	public Client client(int member) {
		return Client.builder().endpoints(this.members.get(member).clientUrl()).build();
	}

	/** The index of the member that leads now, as the members themselves report it. */
	public int leader() throws Exception {
		try (Client client = client()) {
			for (int i = 0; i < this.members.size(); i++) {
				Member member = this.members.get(i);
				if (!member.process.isAlive()) {
					continue;
				}
				var status = client.getMaintenanceClient().statusMember(member.clientUrl()).get(10, TimeUnit.SECONDS);
				if (status.getLeader() == status.getHeader().getMemberId()) {
					return i;
				}
			}
		}
		throw new IllegalStateException("No member of " + endpoints() + " leads");
	}

	/** Kills a member with SIGKILL, by its process, as a crash would. */
	public void kill(int member) throws InterruptedException {
		Process process = this.members.get(member).process;
		process.destroyForcibly();
		process.waitFor(30, TimeUnit.SECONDS);
	}

	@Override
	public void close() throws IOException, InterruptedException {
		for (Member member : this.members) {
			member.stop();
		}
		try (Stream<Path> paths = Files.walk(this.directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> {
				try {
					Files.delete(path);
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
		}
	}

	private void awaitHealthy(Member member) throws IOException, InterruptedException {
		HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		while (System.nanoTime() - deadline < 0) {
			if (!member.process.isAlive()) {
				throw new IllegalStateException("etcd member " + member.name + " ended with status "
						+ member.process.exitValue() + ":\n" + Files.readString(member.log));
			}
			try {
				HttpResponse<String> health = http
					.send(HttpRequest.newBuilder(URI.create(member.clientUrl() + "/health"))
						.timeout(Duration.ofSeconds(2))
						.build(), HttpResponse.BodyHandlers.ofString());
				if (health.statusCode() == 200 && health.body().contains("\"true\"")) {
					return;
				}
			}
			catch (IOException ex) {
				// Not listening yet.
			}
			TimeUnit.MILLISECONDS.sleep(100);
		}
		throw new IllegalStateException("etcd member " + member.name + " was not healthy within " + START_TIMEOUT
				+ ":\n" + Files.readString(member.log));
	}

	/** One member: its name, ports and process. */
	private static final class Member {

		final String name;

		final int clientPort;

		final int peerPort;

		Process process;

		Path log;

		Member(String name, int clientPort, int peerPort) {
			this.name = name;
			this.clientPort = clientPort;
			this.peerPort = peerPort;
		}

		String clientUrl() {
			return "http://127.0.0.1:" + this.clientPort;
		}

		String peerUrl() {
			return "http://127.0.0.1:" + this.peerPort;
		}

		void start(Path directory, String initialCluster, String token) throws IOException {
			this.log = directory.resolve(this.name + ".log");
			this.process = new ProcessBuilder(BINARY.toString(), "--name", this.name, "--data-dir",
					directory.resolve(this.name).toString(), "--listen-client-urls", clientUrl(),
					"--advertise-client-urls", clientUrl(), "--listen-peer-urls", peerUrl(),
					"--initial-advertise-peer-urls", peerUrl(), "--initial-cluster", initialCluster,
					"--initial-cluster-token", token, "--initial-cluster-state", "new", "--logger", "zap",
					"--log-outputs", "stderr")
				.redirectErrorStream(true)
				.redirectOutput(this.log.toFile())
				.start();
		}

		void stop() throws InterruptedException {
			if (this.process != null && this.process.isAlive()) {
				this.process.destroy();
				if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
					this.process.destroyForcibly();
					this.process.waitFor(10, TimeUnit.SECONDS);
				}
			}
		}

	}

}

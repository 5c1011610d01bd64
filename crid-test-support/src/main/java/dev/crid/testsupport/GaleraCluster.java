package dev.crid.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A 3-node MariaDB Galera cluster of its own (multi-primary: every member takes writes),
 * made of the binaries installed on the machine ({@code mariadbd},
 * {@code mariadb-install-db}, and the {@code galera-4} package's provider library): each
 * member a child process on loopback ports of its own (client, group communication, state
 * transfer), its data in a temporary directory, run as the {@code mysql} user when the
 * tests run as root (the rsync state transfer fails under root). The first member
 * bootstraps the cluster; the others join one after the other by an rsync state transfer
 * (joining together, they delay each other). Every member runs with Galera's defaults but
 * for small InnoDB files. {@link #close()} kills every member still running by its
 * process and deletes the data. Where Galera is not installed the calling test is
 * skipped, except under {@code CI=true}, where that is a failure.
 */
public final class GaleraCluster implements AutoCloseable {

	/** The database every member holds, created once the cluster is up. */
	public static final String DATABASE = "crid";

	/** The administrator the tests connect as, without a password. */
	public static final String USER = "root";

	private static final Path SERVER = Path.of("/usr/sbin/mariadbd");

	private static final Path INSTALL_DB = Path.of("/usr/bin/mariadb-install-db");

	private static final List<Path> PROVIDERS = List.of(Path.of("/usr/lib/galera/libgalera_smm.so"),
			Path.of("/usr/lib/libgalera_smm.so"), Path.of("/usr/lib64/galera-4/libgalera_smm.so"));

	private static final Path RSYNC = Path.of("/usr/bin/rsync");

	private static final String SERVER_USER = "mysql";

	private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

	private final Path directory;

	private final List<Member> members = new ArrayList<>();

	private GaleraCluster(Path directory) {
		this.directory = directory;
	}

	/**
	 * Starts three members and waits until each is synced with the cluster.
	 * @return the running cluster; the caller closes it
	 * @throws IOException if a member cannot be set up or started
	 * @throws InterruptedException if interrupted while waiting for a member
	 */
	public static GaleraCluster start() throws IOException, InterruptedException {
		Path provider = requireInstalled();
		GaleraCluster cluster = new GaleraCluster(Files.createTempDirectory("crid-galera-"));
		try {
			for (int i = 1; i <= 3; i++) {
				cluster.members.add(new Member(cluster.directory, "n" + i, ServerProcesses.freePort(),
						ServerProcesses.freePort(), ServerProcesses.freePort(), ServerProcesses.freePort()));
			}
			String peers = cluster.members.stream()
				.map((member) -> "127.0.0.1:" + member.groupPort)
				.collect(Collectors.joining(","));
			for (Member member : cluster.members) {
				member.writeConfiguration(provider, peers);
			}
			ServerProcesses.giveTo(SERVER_USER, cluster.directory);
			ServerProcesses.run(START_TIMEOUT,
					ServerProcesses.asUser(SERVER_USER,
							List.of(INSTALL_DB.toString(), "--defaults-file=" + cluster.members.get(0).configuration,
									"--auth-root-authentication-method=normal", "--skip-test-db")));
			for (Member member : cluster.members) {
				member.start(member == cluster.members.get(0));
				member.awaitSynced();
			}
			cluster.members.get(0).createDatabase();
			return cluster;
		}
		catch (IOException | InterruptedException | RuntimeException | Error ex) {
			cluster.close();
			throw ex;
		}
	}

	/**
	 * Skips the calling test where Galera or what its members need is not installed, or
	 * fails it under {@code CI=true}.
	 * @return the Galera provider library
	 */
	public static Path requireInstalled() {
		Path provider = PROVIDERS.stream().filter(Files::isReadable).findFirst().orElse(null);
		String missing = null;
		if (provider == null) {
			missing = "No Galera provider library at " + PROVIDERS;
		}
		else if (!Files.isExecutable(SERVER) || !Files.isExecutable(INSTALL_DB)) {
			missing = "No MariaDB server at " + SERVER + " and " + INSTALL_DB;
		}
		else if (!Files.isExecutable(RSYNC)) {
			missing = "No rsync at " + RSYNC + " for the state transfer";
		}
		if (missing == null) {
			return provider;
		}
		missing += ": install Debian's mariadb-server, galera-4 and rsync packages to run the Galera tests";
		if ("true".equalsIgnoreCase(System.getenv("CI"))) {
			Assertions.fail(missing + " (CI=true: a missing Galera is a failure)");
		}
		Assumptions.abort(missing);
		throw new IllegalStateException(missing);
	}

	/**
	 * The JDBC URL of one member.
	 * @param member the member's index, from 0
	 * @return the URL
	 */
	public String url(int member) {
		return "jdbc:mariadb://127.0.0.1:" + this.members.get(member).clientPort + "/" + DATABASE;
	}

	/**
	 * The JDBC URL of every member, each connection opened on one of them chosen at
	 * random ({@code loadbalance}), and on another where that one does not answer.
	 * @return the URL
	 */
	public String loadBalancedUrl() {
		return "jdbc:mariadb:loadbalance://" + this.members.stream()
			.map((member) -> "127.0.0.1:" + member.clientPort)
			.collect(Collectors.joining(",")) + "/" + DATABASE;
	}

	/**
	 * Returns a new pool on a URL of the cluster, as its administrator, with the timeouts
	 * crid recommends (a connection waited for 2 s at most, a dead one found out within a
	 * second); the caller closes it.
	 * @param url one of the cluster's URLs
	 * @param maximumPoolSize the pool's size
	 * @return the data source
	 */
	public static HikariDataSource dataSource(String url, int maximumPoolSize) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setUsername(USER);
		config.setMaximumPoolSize(maximumPoolSize);
		config.setConnectionTimeout(TestDatabase.POOL_CONNECTION_TIMEOUT.toMillis());
		config.setValidationTimeout(1_000);
		config.setPoolName("crid-test-galera");
		return new HikariDataSource(config);
	}

	/**
	 * Counts the transactions the members rolled back because another member's had
	 * written the same row first, over every member since it started.
	 * @return the sum of the members' {@code wsrep_local_cert_failures}
	 * @throws SQLException if a member cannot be asked
	 */
	public long certificationFailures() throws SQLException {
		long failures = 0;
		for (Member member : this.members) {
			try (Connection connection = member.connect();
					Statement statement = connection.createStatement();
					ResultSet result = statement.executeQuery("SHOW GLOBAL STATUS LIKE 'wsrep_local_cert_failures'")) {
				failures += result.next() ? result.getLong(2) : 0;
			}
		}
		return failures;
	}

	/**
	 * Kills a member with SIGKILL, by its process, as a crash would.
	 * @param member the member's index, from 0
	 * @throws InterruptedException if interrupted while waiting for it to end
	 */
	public void kill(int member) throws InterruptedException {
		ServerProcesses.kill(this.members.get(member).process);
	}

	@Override
	public void close() throws IOException, InterruptedException {
		for (Member member : this.members) {
			if (member.process != null) {
				ServerProcesses.kill(member.process);
			}
		}
		ServerProcesses.deleteTree(this.directory);
	}

	/** One member: its ports, files and process. */
	private static final class Member {

		final String name;

		final int clientPort;

		final int groupPort;

		final int stateTransferPort;

		final int incrementalTransferPort;

		final Path data;

		final Path configuration;

		final Path log;

		Process process;

		Member(Path directory, String name, int clientPort, int groupPort, int stateTransferPort,
				int incrementalTransferPort) {
			this.name = name;
			this.clientPort = clientPort;
			this.groupPort = groupPort;
			this.stateTransferPort = stateTransferPort;
			this.incrementalTransferPort = incrementalTransferPort;
			this.data = directory.resolve(name);
			this.configuration = directory.resolve(name + ".cnf");
			this.log = directory.resolve(name + ".err");
		}

		void writeConfiguration(Path provider, String peers) throws IOException {
			Files.createDirectories(this.data);
			Path base = this.data.getParent();
			Files.writeString(this.configuration,
					String.join("\n", "[mysqld]", "datadir=" + this.data, "socket=" + base.resolve(this.name + ".sock"),
							"pid-file=" + base.resolve(this.name + ".pid"), "log-error=" + this.log,
							"port=" + this.clientPort, "bind-address=127.0.0.1", "skip-name-resolve",
							"innodb_buffer_pool_size=32M", "innodb_log_file_size=8M", "binlog_format=ROW",
							"default_storage_engine=InnoDB", "innodb_autoinc_lock_mode=2", "wsrep_on=ON",
							"wsrep_provider=" + provider, "wsrep_cluster_name=crid-test",
							"wsrep_cluster_address=gcomm://" + peers, "wsrep_node_name=" + this.name,
							"wsrep_node_address=127.0.0.1:" + this.groupPort, "wsrep_sst_method=rsync",
							"wsrep_sst_receive_address=127.0.0.1:" + this.stateTransferPort,
							"wsrep_provider_options=\"base_port=" + this.groupPort + ";ist.recv_addr=127.0.0.1:"
									+ this.incrementalTransferPort + ";gcache.size=16M\"",
							""));
		}

		void start(boolean bootstrap) throws IOException {
			List<String> command = new ArrayList<>(List.of(SERVER.toString(), "--defaults-file=" + this.configuration));
			if (bootstrap) {
				command.add("--wsrep-new-cluster");
			}
			this.process = new ProcessBuilder(ServerProcesses.asUser(SERVER_USER, command)).redirectErrorStream(true)
				.redirectOutput(this.data.getParent().resolve(this.name + ".out").toFile())
				.start();
		}

		void awaitSynced() throws IOException, InterruptedException {
			long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
			String state = "not answering";
			while (System.nanoTime() - deadline < 0) {
				if (!this.process.isAlive()) {
					throw new IllegalStateException("Galera member " + this.name + " ended with status "
							+ this.process.exitValue() + ":\n" + logTail());
				}
				try (Connection connection = connect();
						Statement statement = connection.createStatement();
						ResultSet result = statement.executeQuery("SHOW STATUS LIKE 'wsrep_local_state_comment'")) {
					state = result.next() ? result.getString(2) : "without a wsrep state";
					if ("Synced".equals(state)) {
						return;
					}
				}
				catch (SQLException ex) {
					// Not listening yet, or still receiving the state transfer.
				}
				TimeUnit.MILLISECONDS.sleep(100);
			}
			throw new IllegalStateException("Galera member " + this.name + " was not synced within " + START_TIMEOUT
					+ " (" + state + "):\n" + logTail());
		}

		void createDatabase() {
			try (Connection connection = connect(); Statement statement = connection.createStatement()) {
				statement.execute("CREATE DATABASE " + DATABASE);
			}
			catch (SQLException ex) {
				throw new IllegalStateException("Could not create the database " + DATABASE + " on " + this.name, ex);
			}
		}

		Connection connect() throws SQLException {
			Properties properties = new Properties();
			properties.setProperty("user", USER);
			properties.setProperty("connectTimeout", "2000");
			properties.setProperty("socketTimeout", "10000");
			return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + this.clientPort + "/", properties);
		}

		private String logTail() throws IOException {
			if (!Files.isReadable(this.log)) {
				return "(no log)";
			}
			List<String> lines = Files.readAllLines(this.log);
			return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
		}

	}

}

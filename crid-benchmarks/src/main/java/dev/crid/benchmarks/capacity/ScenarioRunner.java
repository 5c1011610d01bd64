package dev.crid.benchmarks.capacity;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import dev.crid.benchmarks.BenchmarkDatabase;
import dev.crid.jdbc.JdbcTemplateRegistry;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Runs one scenario: creates its registry tables afresh, starts its worker processes (the
 * same {@code java} and class path as this one), starts them together once every worker
 * has built its nodes, waits for them, reads their results, and drops the tables. Each
 * worker's output goes to a log file beside the results.
 */
final class ScenarioRunner {

	private final Path directory;

	private final String table;

	/**
	 * Creates a runner that logs to the given directory and names the registry tables
	 * after the given one ({@code table}, {@code table_2}, ...).
	 */
	ScenarioRunner(Path directory, String table) {
		this.directory = directory;
		this.table = table;
	}

	List<NodeResult> run(Scenario scenario, String name) throws IOException, InterruptedException {
		String table = this.table;
		Files.createDirectories(this.directory);
		try (HikariDataSource dataSource = scenario.database().dataSource(1)) {
			JdbcTemplate jdbcTemplate = new JdbcTemplate(dataSource);
			List<String> tables = tables(scenario, table);
			drop(jdbcTemplate, tables);
			for (String each : tables) {
				JdbcTemplateRegistry.builder(jdbcTemplate).tableName(each).build().ensureSchema();
			}
			try {
				return runWorkers(scenario, name, table);
			}
			finally {
				drop(jdbcTemplate, tables);
			}
		}
	}

	private static List<String> tables(Scenario scenario, String table) {
		List<String> tables = new ArrayList<>();
		for (int i = 0; i < scenario.tables(); i++) {
			tables.add(scenario.table(table, i));
		}
		return tables;
	}

	private static void drop(JdbcTemplate jdbcTemplate, List<String> tables) {
		for (String table : tables) {
			jdbcTemplate.execute("DROP TABLE IF EXISTS " + table);
			jdbcTemplate.execute("DROP TABLE IF EXISTS " + table + "_meta");
		}
	}

	private List<NodeResult> runWorkers(Scenario scenario, String name, String table)
			throws IOException, InterruptedException {
		List<Process> processes = new ArrayList<>();
		List<Path> results = new ArrayList<>();
		CountDownLatch ready = new CountDownLatch(scenario.jvms());
		try {
			for (int jvm = 0; jvm < scenario.jvms(); jvm++) {
				Path result = this.directory.resolve(name + "-jvm" + jvm + ".tsv");
				Files.deleteIfExists(result);
				results.add(result);
				Process process = new ProcessBuilder(command(scenario, jvm, table, result)).redirectErrorStream(true)
					.start();
				processes.add(process);
				follow(process, this.directory.resolve(name + "-jvm" + jvm + ".log"), ready);
			}
			long startupSeconds = 60 + scenario.nodes() / 10;
			if (!ready.await(startupSeconds, TimeUnit.SECONDS)) {
				throw new IllegalStateException(
						"Workers not ready within " + startupSeconds + " s; see the logs in " + this.directory);
			}
			for (Process process : processes) {
				OutputStream in = process.getOutputStream();
				in.write("GO\n".getBytes(StandardCharsets.US_ASCII));
				in.flush();
			}
			long limit = scenario.warmUp().plus(scenario.measurement()).toSeconds() + 120;
			for (int jvm = 0; jvm < processes.size(); jvm++) {
				Process process = processes.get(jvm);
				if (!process.waitFor(limit, TimeUnit.SECONDS) || process.exitValue() != 0) {
					throw new IllegalStateException("Worker " + jvm + " failed or did not end within " + limit
							+ " s; see " + this.directory.resolve(name + "-jvm" + jvm + ".log"));
				}
			}
		}
		finally {
			processes.forEach(Process::destroy);
		}
		List<NodeResult> nodes = new ArrayList<>();
		for (Path result : results) {
			for (String line : Files.readAllLines(result, StandardCharsets.UTF_8)) {
				if (!line.isBlank()) {
					nodes.add(NodeResult.fromLine(line));
				}
			}
		}
		return nodes;
	}

	private static List<String> command(Scenario scenario, int jvm, String table, Path result) {
		String java = ProcessHandle.current().info().command().orElse("java");
		BenchmarkDatabase database = scenario.database();
		String prefix = "-Dcrid.benchmarks." + database.propertyName() + ".";
		List<String> command = new ArrayList<>(
				List.of(java, "-Xms256m", "-Xmx768m", "-cp", System.getProperty("java.class.path"),
						prefix + "url=" + database.url(), prefix + "username=" + database.username(),
						prefix + "password=" + database.password(), CapacityWorker.class.getName()));
		command.addAll(scenario.toArguments());
		command.addAll(List.of("-jvm", Integer.toString(jvm), "-table", table, "-result", result.toString()));
		return command;
	}

	/**
	 * Copies the worker's output to its log, and counts down when it says it is ready.
	 */
	private static void follow(Process process, Path log, CountDownLatch ready) {
		Thread copier = new Thread(() -> {
			try (BufferedReader out = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
					PrintWriter writer = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true)) {
				String line;
				while ((line = out.readLine()) != null) {
					writer.println(line);
					if (line.equals("READY")) {
						ready.countDown();
					}
				}
			}
			catch (IOException ex) {
				// The worker's exit code tells whether it failed; its log ends here.
			}
		}, "capacity-log-" + log.getFileName());
		copier.setDaemon(true);
		copier.start();
	}

}

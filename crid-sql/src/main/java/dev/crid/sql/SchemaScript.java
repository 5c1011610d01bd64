package dev.crid.sql;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a dialect's schema script from the classpath, the one source of the registry's
 * DDL, and turns it into statements for a given table name.
 */
final class SchemaScript {

	/**
	 * The default names of both tables: the allocation table, and the metadata beside it.
	 */
	private static final Pattern DEFAULT_TABLE = Pattern
		.compile("\\b" + RegistryTables.DEFAULT_NAME + "(" + RegistryTables.META_SUFFIX + ")?\\b");

	private SchemaScript() {
	}

	/**
	 * Returns the script's statements, without comments, with the default table names
	 * replaced by {@code tableName} (already validated) and {@code tableName} with
	 * {@code _meta} appended.
	 */
	static List<String> statements(String location, String tableName) {
		List<String> statements = new ArrayList<>();
		StringBuilder current = new StringBuilder();
		for (String line : read(location).lines().toList()) {
			String trimmed = line.strip();
			if (trimmed.isEmpty() || trimmed.startsWith("--")) {
				continue;
			}
			current.append(trimmed).append(' ');
			if (trimmed.endsWith(";")) {
				statements.add(finish(current, tableName));
				current.setLength(0);
			}
		}
		if (!current.toString().isBlank()) {
			statements.add(finish(current, tableName));
		}
		return statements;
	}

	/**
	 * Returns the script's statements that create the metadata table alone, for a table
	 * that has none beside it (one the Go crid made).
	 */
	static List<String> metadataStatements(String location, String tableName) {
		String meta = tableName + RegistryTables.META_SUFFIX;
		Pattern named = Pattern.compile("\\b" + Pattern.quote(meta) + "\\b");
		return statements(location, tableName).stream().filter((sql) -> named.matcher(sql).find()).toList();
	}

	private static String finish(StringBuilder statement, String tableName) {
		String sql = statement.toString().strip();
		if (sql.endsWith(";")) {
			sql = sql.substring(0, sql.length() - 1).strip();
		}
		Matcher matcher = DEFAULT_TABLE.matcher(sql);
		StringBuilder replaced = new StringBuilder();
		while (matcher.find()) {
			String suffix = (matcher.group(1) != null) ? matcher.group(1) : "";
			matcher.appendReplacement(replaced, Matcher.quoteReplacement(tableName + suffix));
		}
		return matcher.appendTail(replaced).toString();
	}

	/**
	 * Reads a script of this jar. Through the class, not its loader: on the module path
	 * the loader would look for {@code dev/crid/jdbc/...} only in crid-jdbc's module,
	 * which owns that package, while the class looks in its own module first.
	 */
	private static String read(String location) {
		try (InputStream in = SchemaScript.class.getResourceAsStream("/" + location)) {
			if (in == null) {
				throw new IllegalStateException("The schema script " + location + " is not on the classpath");
			}
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read the schema script " + location, ex);
		}
	}

}

package dev.crid.jdbc;

import java.lang.reflect.Proxy;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How product names and versions map to dialects. The real databases' metadata is covered
 * by the integration tests; here the metadata is a stand-in that answers with given
 * names, to reach products and versions this machine does not run.
 */
class DialectDetectorTest {

	@ParameterizedTest
	@CsvSource({ "PostgreSQL, 15.20, 15, 20, POSTGRESQL", "MariaDB, 10.11.19-MariaDB-0+deb12u1, 10, 11, MARIADB",
			"MariaDB, 11.4.2-MariaDB, 11, 4, MARIADB", "MariaDB, 10.5.0-MariaDB, 10, 5, MARIADB",
			"MariaDB, 10.4.32-MariaDB, 10, 4, MYSQL", "MySQL, 8.0.36, 8, 0, MYSQL",
			"MySQL, 5.5.5-10.11.6-MariaDB-log, 5, 5, MARIADB", "MySQL, 5.5.5-10.3.39-MariaDB, 5, 5, MYSQL",
			"H2, 2.4.240 (2025-09-22), 2, 4, H2", "Apache Derby, 10.16.1.1, 10, 16, GENERIC",
			"Oracle, Oracle Database 23ai, 23, 0, GENERIC", "'', '', 0, 0, GENERIC" })
	void mapsTheProductToADialect(String product, String version, int major, int minor, JdbcDialect expected)
			throws SQLException {
		assertThat(DialectDetector.detect(metaData(product, version, major, minor))).isEqualTo(expected);
	}

	private static DatabaseMetaData metaData(String product, String version, int major, int minor) {
		return (DatabaseMetaData) Proxy.newProxyInstance(getClassLoader(), new Class<?>[] { DatabaseMetaData.class },
				(proxy, method, arguments) -> switch (method.getName()) {
					case "getDatabaseProductName" -> product;
					case "getDatabaseProductVersion" -> version;
					case "getDatabaseMajorVersion" -> major;
					case "getDatabaseMinorVersion" -> minor;
					default -> throw new UnsupportedOperationException(method.getName());
				});
	}

	private static ClassLoader getClassLoader() {
		return DialectDetectorTest.class.getClassLoader();
	}

}

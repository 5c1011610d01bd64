package dev.crid.autoconfigure;

import java.util.Arrays;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The architecture's rules (CONTRIBUTING.md, "Modules and the rules between them"),
 * checked on the main classes of every crid module on this module's test class path:
 * crid-core, crid-sql, crid-jdbc, crid-r2dbc, crid-hibernate, crid-spring-data, this one,
 * and crid-test-support. Arrows only point down the table of modules, no package imports
 * another that imports it back, and the library pieces of this module need none of its
 * auto-configuration. Each rule first makes sure that the packages it checks hold
 * classes, so that it cannot pass on none.
 */
class ArchitectureTest {

	private static final String CORE = "dev.crid";

	private static final String JDBC = "dev.crid.jdbc..";

	private static final String HIBERNATE = "dev.crid.hibernate..";

	/** crid-spring-data's callbacks. */
	private static final String SPRING_DATA = "dev.crid.data";

	private static final String R2DBC_REGISTRY = "dev.crid.r2dbc..";

	/** What the JDBC and R2DBC registries share: the dialects' statements. */
	private static final String SQL = "dev.crid.sql..";

	private static final String[] REGISTRIES = { JDBC, R2DBC_REGISTRY, "dev.crid.etcd.." };

	private static final String[] LIBRARY_PIECES = { "dev.crid.format..", "dev.crid.jackson..", "dev.crid.micrometer..",
			"dev.crid.actuate.." };

	/**
	 * Every module's main classes, without the test classes: those in any
	 * {@code test-classes} directory, also below the build directory of the profile
	 * {@code boot-4.1} ({@code target/boot-4.1}), which ArchUnit's own option for Maven
	 * ({@code target/test-classes}) would take for main classes.
	 */
	private static final JavaClasses MAIN = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption((location) -> !location.contains("/test-classes/"))
		.importPackages("dev.crid");

	@Test
	void coreKnowsNoJdbcSpringOrHibernate() {
		check(noClasses().that()
			.resideInAPackage(CORE)
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("java.sql..", "javax.sql..", "org.springframework..", "org.hibernate..",
					"jakarta.persistence..", "dev.crid.*..")
			.because("crid-core depends on the JDK alone, and on no other crid module"), CORE);
	}

	@Test
	void theSharedSqlKnowsNoDriverNoSpringAndNoOtherModule() {
		check(noClasses().that()
			.resideInAPackage(SQL)
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(
					concat(REGISTRIES, "java.sql..", "javax.sql..", "io.r2dbc..", "org.springframework..", CORE))
			.because("crid-sql depends on the JDK alone: what is JDBC's or R2DBC's stays in their modules"), SQL);
	}

	@Test
	void registriesKnowNothingOfEachOther() {
		check(noClasses().that()
			.resideInAPackage(JDBC)
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(without(JDBC, REGISTRIES))
			.because("each registry module stands alone: only the dialects' statements are shared"), JDBC);
		check(noClasses().that()
			.resideInAPackage(R2DBC_REGISTRY)
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(without(R2DBC_REGISTRY, REGISTRIES))
			.because("each registry module stands alone: only the dialects' statements are shared"), R2DBC_REGISTRY);
	}

	@Test
	void hibernateAndSpringDataKnowNoRegistryAndNotEachOther() {
		check(noClasses().that()
			.resideInAPackage(HIBERNATE)
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(concat(REGISTRIES, "dev.crid.data.."))
			.because("crid-hibernate knows no registry and no Spring Data"), HIBERNATE);
		check(noClasses().that()
			.resideInAPackage(SPRING_DATA)
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(concat(REGISTRIES, HIBERNATE))
			.because("crid-spring-data knows no registry and no Hibernate"), SPRING_DATA);
		check(noClasses().that()
			.resideInAnyPackage(R2DBC_REGISTRY)
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(SPRING_DATA, HIBERNATE)
			.because("a registry knows neither Spring Data nor Hibernate"), R2DBC_REGISTRY);
	}

	@Test
	void jdbcHibernateAndSpringDataKnowNoSpringBoot() {
		check(noClasses().that()
			.resideInAnyPackage(SQL, JDBC, R2DBC_REGISTRY, HIBERNATE, "dev.crid.data..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework.boot..", "dev.crid.autoconfigure..")
			.because("only the auto-configuration knows Spring Boot"), SQL, JDBC, HIBERNATE, SPRING_DATA,
				R2DBC_REGISTRY);
	}

	@Test
	void libraryPiecesNeedNoAutoConfiguration() {
		check(noClasses().that()
			.resideInAnyPackage(LIBRARY_PIECES)
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.crid.autoconfigure..")
			.because("an application without Boot's auto-configuration can use them"), LIBRARY_PIECES);
	}

	@Test
	void noPackageImportsOneThatImportsItBack() {
		check(slices().matching("(**)").should().beFreeOfCycles().because("no import circle anywhere"),
				concat(LIBRARY_PIECES, CORE, SQL, JDBC, HIBERNATE, SPRING_DATA, R2DBC_REGISTRY,
						"dev.crid.autoconfigure", "dev.crid.autoconfigure.registry", "dev.crid.autoconfigure.health",
						"dev.crid.testsupport"));
	}

	@Test
	void productionCodeNeverUsesTestSupport() {
		check(noClasses().that()
			.resideOutsideOfPackage("dev.crid.testsupport..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.crid.testsupport..")
			.because("crid-test-support is not deployed"), CORE, "dev.crid.testsupport..");
	}

	/**
	 * Checks the rule on the main classes, once each package it checks is known to hold
	 * some.
	 */
	private static void check(ArchRule rule, String... checkedPackages) {
		for (String checked : checkedPackages) {
			assertThat(MAIN.that(resideInAPackage(checked))).as("classes in %s, which the rule checks", checked)
				.isNotEmpty();
		}
		rule.check(MAIN);
	}

	private static String[] without(String left, String[] packages) {
		return Arrays.stream(packages).filter((name) -> !name.equals(left)).toArray(String[]::new);
	}

	private static String[] concat(String[] packages, String... more) {
		String[] all = Arrays.copyOf(packages, packages.length + more.length);
		System.arraycopy(more, 0, all, packages.length, more.length);
		return all;
	}

}

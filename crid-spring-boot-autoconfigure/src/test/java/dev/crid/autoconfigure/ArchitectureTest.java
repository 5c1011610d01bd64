package dev.crid.autoconfigure;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The architecture's rules (DESIGN.md, "Modules"), checked on the main classes of every
 * crid module on this module's test class path: crid-core, crid-jdbc, crid-hibernate,
 * this one, and crid-test-support. Arrows only point down the table of modules.
 */
class ArchitectureTest {

	private static final String CORE = "dev.crid";

	private static final String TEST_SUPPORT = "dev.crid.testsupport..";

	private static final String[] BELOW_BOOT = { "dev.crid.jdbc..", "dev.crid.hibernate..", "dev.crid.data.." };

	private static final JavaClasses MAIN = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("dev.crid");

	@Test
	void seesTheClassesOfEveryModule() {
		assertThat(MAIN.stream().map((type) -> type.getPackageName()).distinct())
			.as("the rules below would pass on no classes at all")
			.contains(CORE, "dev.crid.jdbc", "dev.crid.hibernate", "dev.crid.autoconfigure", "dev.crid.testsupport");
	}

	@Test
	void coreKnowsNoJdbcSpringOrHibernate() {
		ArchRule rule = noClasses().that()
			.resideInAPackage(CORE)
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("java.sql..", "javax.sql..", "org.springframework..", "org.hibernate..",
					"jakarta.persistence..", "dev.crid.*..")
			.because("crid-core depends on the JDK alone, and on no other crid module");
		rule.check(MAIN);
	}

	@Test
	void jdbcHibernateAndSpringDataKnowNoSpringBoot() {
		ArchRule rule = noClasses().that()
			.resideInAnyPackage(BELOW_BOOT)
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.springframework.boot..", "dev.crid.autoconfigure..")
			.because("only the auto-configuration knows Spring Boot")
			.allowEmptyShould(true);
		rule.check(MAIN);
	}

	@Test
	void productionCodeNeverUsesTestSupport() {
		ArchRule rule = noClasses().that()
			.resideOutsideOfPackage(TEST_SUPPORT)
			.should()
			.dependOnClassesThat()
			.resideInAPackage(TEST_SUPPORT)
			.because("crid-test-support is not deployed");
		rule.check(MAIN);
	}

}

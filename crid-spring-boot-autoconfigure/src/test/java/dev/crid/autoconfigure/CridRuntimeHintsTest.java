package dev.crid.autoconfigure;

import java.io.IOException;
import java.lang.reflect.Member;
import java.util.List;

import dev.crid.hibernate.Crid;
import dev.crid.hibernate.CridGeneratorIntegrator;
import dev.crid.hibernate.CridIdentifierGenerator;
import dev.crid.hibernate.CridTypeContributor;
import dev.crid.jackson.CridJacksonModule;
import org.hibernate.generator.GeneratorCreationContext;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for crid's runtime hints ({@link CridRuntimeHints} and the registry's):
 * everything crid loads reflectively or from the classpath is declared for a native
 * image, and the registrars are found where Spring's AOT processing looks.
 */
class CridRuntimeHintsTest {

	private final RuntimeHints hints = hints(getClass().getClassLoader());

	@Test
	void isRegisteredInAotFactories() {
		assertThat(AotServices.factories().load(RuntimeHintsRegistrar.class))
			.hasAtLeastOneElementOfType(CridRuntimeHints.class)
			.anyMatch((registrar) -> registrar.getClass().getName().startsWith("dev.crid.autoconfigure.registry."));
	}

	@Test
	void keepsWhatTheNamedNodesPropertiesAreBoundWith() throws NoSuchMethodException {
		assertThat(RuntimeHintsPredicates.reflection().onType(NodeProperties.class)).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(NodeProperties.class.getMethod("setBlockSize", long.class))).accepts(this.hints);
	}

	@Test
	void keepsEverySchemaScriptThatCridSqlShips() throws IOException {
		Resource[] scripts = new PathMatchingResourcePatternResolver()
			.getResources("classpath*:dev/crid/jdbc/schema-*.sql");
		assertThat(scripts).extracting(Resource::getFilename)
			.contains("schema-postgresql.sql", "schema-mariadb.sql", "schema-mysql.sql", "schema-h2.sql",
					"schema-generic.sql");
		for (Resource script : scripts) {
			assertThat(RuntimeHintsPredicates.resource().forResource("dev/crid/jdbc/" + script.getFilename()))
				.as(script.getFilename())
				.accepts(this.hints);
		}
		assertThat(RuntimeHintsPredicates.resource().forResource("dev/crid/jdbc/other.sql")).rejects(this.hints);
	}

	@Test
	void keepsBothConstructorsHibernateCreatesTheGeneratorWith() throws NoSuchMethodException {
		assertThat(RuntimeHintsPredicates.reflection()
			.onConstructorInvocation(CridIdentifierGenerator.class.getConstructor(Crid.class, Member.class,
					GeneratorCreationContext.class)))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onConstructorInvocation(CridIdentifierGenerator.class.getConstructor())).accepts(this.hints);
	}

	@Test
	void keepsTheServicesHibernateLoadsFromCridHibernate() throws NoSuchMethodException {
		for (String service : List.of("org.hibernate.boot.model.TypeContributor",
				"org.hibernate.integrator.spi.Integrator")) {
			assertThat(RuntimeHintsPredicates.resource().forResource("META-INF/services/" + service))
				.accepts(this.hints);
		}
		for (Class<?> provider : List.of(CridTypeContributor.class, CridGeneratorIntegrator.class)) {
			assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(provider.getConstructor()))
				.accepts(this.hints);
		}
	}

	@Test
	void keepsTheJacksonModulesConstructors() {
		assertThat(CridJacksonModule.class.getConstructors()).hasSize(3)
			.allSatisfy((
					constructor) -> assertThat(RuntimeHintsPredicates.reflection().onConstructorInvocation(constructor))
						.accepts(this.hints));
	}

	@Test
	void keepsTheClassesWhosePresenceIsCheckedByName() {
		for (String name : List.of("dev.crid.jdbc.JdbcTemplateRegistry", "org.springframework.jdbc.core.JdbcTemplate",
				"org.springframework.boot.jdbc.EmbeddedDatabaseConnection", "dev.crid.r2dbc.R2dbcRegistry",
				"io.r2dbc.spi.ConnectionFactory", "reactor.core.publisher.Mono", CridRuntimeHints.CRID_ANNOTATION_CLASS,
				CridRuntimeHints.DATA_CRID_ANNOTATION_CLASS)) {
			assertThat(RuntimeHintsPredicates.reflection().onType(TypeReference.of(name))).as(name).accepts(this.hints);
		}
	}

	@Test
	void declaresNothingForModulesThatAreAbsent() {
		RuntimeHints without = hints(
				new FilteredClassLoader("dev.crid.jdbc.", "dev.crid.sql.", "dev.crid.hibernate.", "tools.jackson."));
		assertThat(RuntimeHintsPredicates.resource().forResource("dev/crid/jdbc/schema-h2.sql")).rejects(without);
		assertThat(RuntimeHintsPredicates.reflection().onType(CridIdentifierGenerator.class)).rejects(without);
		assertThat(RuntimeHintsPredicates.reflection().onType(CridJacksonModule.class)).rejects(without);
		TypeReference jdbcTemplate = TypeReference.of("org.springframework.jdbc.core.JdbcTemplate");
		assertThat(RuntimeHintsPredicates.reflection().onType(jdbcTemplate)).as("spring-jdbc, still present")
			.accepts(without);
	}

	/** The hints of every registrar of crid's that Spring's AOT processing finds. */
	private static RuntimeHints hints(ClassLoader classLoader) {
		RuntimeHints hints = new RuntimeHints();
		AotServices.factories()
			.load(RuntimeHintsRegistrar.class)
			.stream()
			.filter((registrar) -> registrar.getClass().getName().startsWith("dev.crid."))
			.forEach((registrar) -> registrar.registerHints(hints, classLoader));
		return hints;
	}

}

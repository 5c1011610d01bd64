package dev.crid.hibernate;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.crid.CridId;
import dev.crid.CridNode;
import dev.crid.InMemoryRegistry;
import dev.crid.hibernate.fieldstyle.FieldGetterEntity;
import dev.crid.hibernate.fieldstyle.FieldLongEntity;
import dev.crid.hibernate.fieldstyle.FieldUuidEntity;
import dev.crid.hibernate.nocrid.BareLongEntity;
import dev.crid.hibernate.nocrid.BareStringEntity;
import dev.crid.hibernate.nocrid.ClassAnnotatedEntity;
import dev.crid.hibernate.nocrid.ClassSequenceEntity;
import dev.crid.hibernate.packagestyle.PackageEntityOnBareBase;
import dev.crid.hibernate.packagestyle.PackageIdentityEntity;
import dev.crid.hibernate.packagestyle.PackageIntegerEntity;
import dev.crid.hibernate.packagestyle.PackageLongEntity;
import dev.crid.hibernate.packagestyle.PackageOwnSequenceEntity;
import dev.crid.hibernate.packagestyle.PackageStringEntity;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceException;
import org.assertj.core.api.AbstractStringAssert;
import org.h2.jdbcx.JdbcDataSource;
import org.hibernate.HibernateException;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.id.enhanced.SequenceStyleGenerator;
import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestInstance.Lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.within;

/**
 * Mistakes in the mapping that must stop the {@code SessionFactory} from being built, and
 * a missing node, which must not (ahead-of-time processing builds the factory without
 * one) but must fail the first insert; each with a message that names what is wrong and
 * how to fix it. Runs on an in-memory H2 database.
 */
@TestInstance(Lifecycle.PER_CLASS)
class CridIdentifierGeneratorBootTest {

	private final JdbcDataSource dataSource = new JdbcDataSource();

	private CridNode node;

	@BeforeAll
	void createNode() {
		this.dataSource.setURL("jdbc:h2:mem:crid_hibernate_boot;DB_CLOSE_DELAY=-1");
		this.node = CridNode.builder(new InMemoryRegistry()).build();
	}

	@AfterAll
	void closeNode() {
		this.node.close();
	}

	@Test
	void bootsWithBothStylesWhenTheNodeIsInTheSettings() {
		assertThatCode(() -> build(withNode(), FieldLongEntity.class, PackageLongEntity.class).close())
			.doesNotThrowAnyException();
	}

	@Test
	void bootsThroughJpaWithTheNodeInThePersistenceProperties() {
		try (EntityManagerFactory factory = jpa(PackageStringEntity.class)
			.property(CridIdentifierGenerator.NODE_SETTING, this.node)
			.createEntityManagerFactory()) {
			PackageStringEntity entity = new PackageStringEntity();
			factory.runInTransaction((entityManager) -> entityManager.persist(entity));
			assertThat(this.node.parser().parse(CridId.parse(entity.getId())).timestamp()).isCloseTo(Instant.now(),
					within(5, ChronoUnit.SECONDS));
		}
	}

	@Test
	void asksASupplierInTheSettingsForTheNodeAtTheFirstInsertOnly() {
		AtomicInteger asked = new AtomicInteger();
		Supplier<CridNode> lookup = () -> {
			asked.incrementAndGet();
			return this.node;
		};
		try (EntityManagerFactory factory = jpa(PackageStringEntity.class)
			.property(CridIdentifierGenerator.NODE_SETTING, lookup)
			.createEntityManagerFactory()) {
			assertThat(asked).as("building the factory needs no node").hasValue(0);
			PackageStringEntity first = new PackageStringEntity();
			PackageStringEntity second = new PackageStringEntity();
			factory.runInTransaction((entityManager) -> {
				entityManager.persist(first);
				entityManager.persist(second);
			});
			assertThat(this.node.parser().parse(CridId.parse(first.getId())).timestamp()).isCloseTo(Instant.now(),
					within(5, ChronoUnit.SECONDS));
			assertThat(asked).as("asked once, then kept").hasValue(1);
		}
	}

	@Test
	void failsThroughJpaWhenNoCridIsInReach() {
		Throwable failure = catchThrowable(
				() -> jpa(BareStringEntity.class).property(CridIdentifierGenerator.NODE_SETTING, this.node)
					.createEntityManagerFactory()
					.close());
		// JPA bootstrap wraps every failure in "Unable to build Hibernate
		// SessionFactory"; ours is the cause.
		assertThat(failure).isInstanceOf(PersistenceException.class)
			.cause()
			.isInstanceOf(HibernateException.class)
			.hasMessageContaining("no @Crid is in reach");
	}

	@Test
	void failsForAnUnsupportedFieldTypeNamingEntityAndField() {
		assertBootFailure(withNode(), FieldUuidEntity.class).contains("entity " + FieldUuidEntity.class.getName())
			.contains("field 'id'")
			.contains("java.util.UUID")
			.contains("use long, java.lang.Long, java.lang.String (decimal) or dev.crid.CridId");
	}

	@Test
	void failsForAnUnsupportedFieldTypeWithCridOnThePackage() {
		assertBootFailure(withNode(), PackageIntegerEntity.class)
			.contains("entity " + PackageIntegerEntity.class.getName())
			.contains("field 'id'")
			.contains("java.lang.Integer");
	}

	@Test
	void namesEveryEntityAndFieldWithAnUnsupportedTypeAtOnce() {
		assertBootFailure(withNode(), FieldUuidEntity.class, FieldLongEntity.class, PackageIntegerEntity.class)
			.startsWith("2 identifiers cannot take crid IDs:\n")
			.contains("entity " + FieldUuidEntity.class.getName() + " (field 'id' declared in "
					+ FieldUuidEntity.class.getName() + ") has type java.util.UUID")
			.contains("entity " + PackageIntegerEntity.class.getName() + " (field 'id' declared in "
					+ PackageIntegerEntity.class.getName() + ") has type java.lang.Integer")
			.doesNotContain(FieldLongEntity.class.getName());
	}

	@Test
	void reportsEveryKindOfProblemInOneMessage() {
		assertBootFailure(withNode(), FieldUuidEntity.class, BareLongEntity.class, PackageIdentityEntity.class)
			.startsWith("3 identifiers cannot take crid IDs:\n")
			.contains(FieldUuidEntity.class.getName() + " (field 'id' declared in")
			.contains(BareLongEntity.class.getName() + " ('id' declared in")
			.contains(PackageIdentityEntity.class.getName() + " ('id' declared in");
	}

	@Test
	void failsWhenAStrategyTakesTheIdFromCridOnThePackage() {
		assertBootFailure(withNode(), PackageIdentityEntity.class)
			.contains("entity " + PackageIdentityEntity.class.getName())
			.contains("has @Crid on its package dev.crid.hibernate.packagestyle but "
					+ "@GeneratedValue(strategy = IDENTITY)")
			.contains("it chose org.hibernate.id.IdentityGenerator, so this entity would get no crid IDs")
			.contains("write @GeneratedValue(generator = \"crid\") without the strategy")
			.contains("move @Crid from the package onto the identifiers that take crid IDs");
	}

	@Test
	void failsWhenAStrategyTakesTheIdFromCridOnTheClass() {
		assertBootFailure(withNode(), ClassSequenceEntity.class)
			.contains("entity " + ClassSequenceEntity.class.getName())
			.contains("has @Crid on its class " + ClassSequenceEntity.class.getName()
					+ " but @GeneratedValue(strategy = SEQUENCE)")
			.contains(SequenceStyleGenerator.class.getName())
			.contains("remove @Crid from the class");
	}

	@Test
	void leavesAnIdThatNamesAGeneratorOfItsOwnToItEvenWithCridOnThePackage() {
		try (WarningRecorder recorder = new WarningRecorder();
				TestHibernate hibernate = build(withNode(), PackageOwnSequenceEntity.class)) {
			assertThat(hibernate.sessionFactory()
				.unwrap(SessionFactoryImplementor.class)
				.getMappingMetamodel()
				.getEntityDescriptor(PackageOwnSequenceEntity.class)
				.getGenerator()).isInstanceOf(SequenceStyleGenerator.class);
			assertThat(recorder.warnings()).isEmpty();
		}
	}

	@Test
	void warnsAboutNothingWhenNoGeneratedValueIsLeftOver() {
		try (WarningRecorder recorder = new WarningRecorder()) {
			build(withNode(), FieldLongEntity.class, FieldGetterEntity.class, PackageLongEntity.class,
					ClassAnnotatedEntity.class)
				.close();
			assertThat(recorder.warnings()).isEmpty();
		}
	}

	@Test
	void bootsWithoutANodeSoThatAheadOfTimeProcessingCanBuildTheFactory() {
		assertThatCode(() -> build(withoutNode(), FieldLongEntity.class, PackageLongEntity.class).close())
			.doesNotThrowAnyException();
	}

	@Test
	void failsTheFirstInsertWithoutANodeSayingHowToProvideOne() {
		assertInsertFailure(withoutNode(), new FieldLongEntity()).contains("entity " + FieldLongEntity.class.getName())
			.contains("field 'id'")
			.contains("\"dev.crid.node\" (CridIdentifierGenerator.NODE_SETTING) is not set")
			.contains("put a CridNode object in the settings under \"dev.crid.node\"")
			.contains("with Spring Boot, the crid starter does it");
	}

	@Test
	void failsTheFirstInsertWithoutANodeForThePackageStyleToo() {
		assertInsertFailure(withoutNode(), new PackageLongEntity())
			.contains("entity " + PackageLongEntity.class.getName())
			.contains("is not set");
	}

	@Test
	void failsTheFirstInsertWhenTheNodeSettingHoldsSomethingElse() {
		Map<String, Object> settings = withoutNode();
		settings.put(CridIdentifierGenerator.NODE_SETTING, "my-node");
		assertInsertFailure(settings, new FieldLongEntity())
			.contains("holds a java.lang.String instead of a dev.crid.CridNode object");
	}

	@Test
	void failsInsteadOfGivingAStringIdARandomUuidWhenNoCridIsInReach() {
		assertBootFailure(withNode(), BareStringEntity.class).contains("entity " + BareStringEntity.class.getName())
			.contains("asks for @GeneratedValue(generator = \"crid\"), but no @Crid is in reach")
			.contains("UuidGenerator")
			.contains("or on package dev.crid.hibernate.nocrid in its package-info.java");
	}

	@Test
	void failsInsteadOfUsingADatabaseSequenceWhenNoCridIsInReach() {
		assertBootFailure(withNode(), BareLongEntity.class).contains("entity " + BareLongEntity.class.getName())
			.contains("no @Crid is in reach");
	}

	@Test
	void failsWhenTheIdIsDeclaredInASuperclassWhosePackageHasNoCrid() {
		assertBootFailure(withNode(), PackageEntityOnBareBase.class)
			.contains("entity " + PackageEntityOnBareBase.class.getName())
			.contains("declared in dev.crid.hibernate.nocrid.BareBaseEntity")
			.contains("no @Crid is in reach")
			.contains("on package dev.crid.hibernate.nocrid");
	}

	@Test
	void reportsEveryIdWithoutCridAtOnce() {
		assertBootFailure(withNode(), BareStringEntity.class, BareLongEntity.class)
			.contains(BareStringEntity.class.getName())
			.contains(BareLongEntity.class.getName());
	}

	private Map<String, Object> withNode() {
		Map<String, Object> settings = withoutNode();
		settings.put(CridIdentifierGenerator.NODE_SETTING, this.node);
		return settings;
	}

	private Map<String, Object> withoutNode() {
		return TestHibernate.settings(this.dataSource);
	}

	private HibernatePersistenceConfiguration jpa(Class<?> entity) {
		return new HibernatePersistenceConfiguration("crid-boot-test").managedClass(entity)
			.property(AvailableSettings.DATASOURCE, this.dataSource)
			.property(AvailableSettings.HBM2DDL_AUTO, "create-drop");
	}

	private static TestHibernate build(Map<String, Object> settings, Class<?>... entities) {
		return TestHibernate.build(settings, List.of(entities));
	}

	/**
	 * Builds a session factory, which must succeed, and persists the entity, which must
	 * fail; returns the message of what the caller gets.
	 */
	private static AbstractStringAssert<?> assertInsertFailure(Map<String, Object> settings, Object entity) {
		try (TestHibernate hibernate = build(settings, entity.getClass())) {
			Throwable failure = catchThrowable(
					() -> hibernate.sessionFactory().inTransaction((session) -> session.persist(entity)));
			assertThat(failure).isInstanceOf(HibernateException.class);
			return assertThat(failure.getMessage());
		}
	}

	/**
	 * Builds a session factory that must fail, and returns the message of what the caller
	 * gets: the explanation must be there, not buried in a cause.
	 */
	private static AbstractStringAssert<?> assertBootFailure(Map<String, Object> settings, Class<?>... entities) {
		Throwable failure = catchThrowable(() -> build(settings, entities).close());
		assertThat(failure).isInstanceOf(HibernateException.class);
		return assertThat(failure.getMessage());
	}

}

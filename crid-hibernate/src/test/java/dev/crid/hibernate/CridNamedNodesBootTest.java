package dev.crid.hibernate;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.crid.CridId;
import dev.crid.CridNode;
import dev.crid.InMemoryRegistry;
import dev.crid.hibernate.fieldstyle.FieldDefaultNodeEntity;
import dev.crid.hibernate.fieldstyle.FieldLongEntity;
import dev.crid.hibernate.fieldstyle.FieldNamedNodeEntity;
import dev.crid.hibernate.fieldstyle.FieldUnknownNodeEntity;
import dev.crid.hibernate.fieldstyle.FieldUuidEntity;
import dev.crid.hibernate.nocrid.ClassNamedNodeEntity;
import jakarta.persistence.EntityManagerFactory;
import org.assertj.core.api.AbstractStringAssert;
import org.h2.jdbcx.JdbcDataSource;
import org.hibernate.HibernateException;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code @Crid("name")}: an entity takes its IDs from the node of that name in
 * {@link CridIdentifierGenerator#NODES_SETTING}, {@code @Crid} and
 * {@code @Crid("default")} from the default node, each node's supplier is asked once, and
 * a name no node has stops the {@code SessionFactory}, naming the nodes there are. The
 * node named {@code public} has another layout (41 timestamp bits, 22 sequence bits) than
 * the default node (31 and 32), so an ID tells which node issued it. Runs on an in-memory
 * H2 database.
 */
class CridNamedNodesBootTest {

	private final JdbcDataSource dataSource = new JdbcDataSource();

	private CridNode defaultNode;

	private CridNode publicNode;

	@BeforeEach
	void createNodes() {
		this.dataSource.setURL("jdbc:h2:mem:crid_hibernate_named;DB_CLOSE_DELAY=-1");
		this.defaultNode = CridNode.builder(new InMemoryRegistry()).build();
		this.publicNode = CridNode.builder(new InMemoryRegistry()).timestampBits(41).sequenceBits(22).build();
	}

	@AfterEach
	void closeNodes() {
		this.defaultNode.close();
		this.publicNode.close();
	}

	@Test
	void takesTheIdsOfANamedEntityFromTheNodeOfThatName() {
		Map<String, Object> settings = TestHibernate.settings(this.dataSource);
		settings.put(CridIdentifierGenerator.NODE_SETTING, this.defaultNode);
		settings.put(CridIdentifierGenerator.NODES_SETTING, Map.of("public", this.publicNode));
		try (TestHibernate hibernate = build(settings, FieldNamedNodeEntity.class, ClassNamedNodeEntity.class,
				FieldLongEntity.class)) {
			FieldNamedNodeEntity onField = new FieldNamedNodeEntity();
			ClassNamedNodeEntity onClass = new ClassNamedNodeEntity();
			hibernate.sessionFactory().inTransaction((session) -> {
				session.persist(onField);
				session.persist(onClass);
			});
			assertIssuedBy(this.publicNode, onField.getId());
			assertIssuedBy(this.publicNode, CridId.parse(onClass.getId()).value());
			assertThat(this.publicNode.stats().idsIssued()).isEqualTo(2);
			assertThat(this.defaultNode.stats().idsIssued()).isZero();
		}
	}

	@Test
	void takesTheIdsOfCridWithoutANameAndOfCridDefaultFromTheDefaultNode() {
		Map<String, Object> settings = TestHibernate.settings(this.dataSource);
		settings.put(CridIdentifierGenerator.NODE_SETTING, this.defaultNode);
		settings.put(CridIdentifierGenerator.NODES_SETTING, Map.of("public", this.publicNode));
		try (TestHibernate hibernate = build(settings, FieldLongEntity.class, FieldDefaultNodeEntity.class,
				FieldNamedNodeEntity.class)) {
			FieldLongEntity unnamed = new FieldLongEntity();
			FieldDefaultNodeEntity named = new FieldDefaultNodeEntity();
			hibernate.sessionFactory().inTransaction((session) -> {
				session.persist(unnamed);
				session.persist(named);
			});
			assertIssuedBy(this.defaultNode, unnamed.getId());
			assertIssuedBy(this.defaultNode, named.getId());
			assertThat(this.defaultNode.stats().idsIssued()).isEqualTo(2);
			assertThat(this.publicNode.stats().idsIssued()).isZero();
		}
	}

	@Test
	void findsTheDefaultNodeUnderKeyDefaultOfTheNodesWhenTheNodeSettingIsAbsent() {
		Map<String, Object> settings = TestHibernate.settings(this.dataSource);
		settings.put(CridIdentifierGenerator.NODES_SETTING,
				Map.of("default", this.defaultNode, "public", this.publicNode));
		try (TestHibernate hibernate = build(settings, FieldLongEntity.class, FieldDefaultNodeEntity.class)) {
			FieldLongEntity unnamed = new FieldLongEntity();
			FieldDefaultNodeEntity named = new FieldDefaultNodeEntity();
			hibernate.sessionFactory().inTransaction((session) -> {
				session.persist(unnamed);
				session.persist(named);
			});
			assertIssuedBy(this.defaultNode, unnamed.getId());
			assertIssuedBy(this.defaultNode, named.getId());
		}
	}

	@Test
	void asksEachNodesSupplierOnceAtTheFirstInsertHoweverManyEntitiesUseIt() {
		AtomicInteger askedForPublic = new AtomicInteger();
		AtomicInteger askedForDefault = new AtomicInteger();
		Map<String, Supplier<CridNode>> nodes = new HashMap<>();
		nodes.put("public", counting(askedForPublic, this.publicNode));
		nodes.put("default", counting(askedForDefault, this.defaultNode));
		try (EntityManagerFactory factory = new HibernatePersistenceConfiguration("crid-named-nodes")
			.managedClasses(FieldNamedNodeEntity.class, ClassNamedNodeEntity.class, FieldLongEntity.class,
					FieldDefaultNodeEntity.class)
			.property(AvailableSettings.DATASOURCE, this.dataSource)
			.property(AvailableSettings.HBM2DDL_AUTO, "create-drop")
			.property(CridIdentifierGenerator.NODES_SETTING, nodes)
			.createEntityManagerFactory()) {
			assertThat(askedForPublic).as("building the factory needs no node").hasValue(0);
			assertThat(askedForDefault).as("building the factory needs no node").hasValue(0);
			SessionFactory sessionFactory = factory.unwrap(SessionFactory.class);
			for (int round = 0; round < 3; round++) {
				sessionFactory.inTransaction((session) -> {
					session.persist(new FieldNamedNodeEntity());
					session.persist(new ClassNamedNodeEntity());
				});
			}
			assertThat(askedForPublic).as("asked once for both entities, then kept").hasValue(1);
			assertThat(askedForDefault).as("no entity of the default node inserted yet").hasValue(0);
			assertThat(this.publicNode.stats().idsIssued()).isEqualTo(6);
			for (int round = 0; round < 3; round++) {
				sessionFactory.inTransaction((session) -> {
					session.persist(new FieldLongEntity());
					session.persist(new FieldDefaultNodeEntity());
				});
			}
			assertThat(askedForDefault).as("asked once for @Crid and @Crid(\"default\")").hasValue(1);
			assertThat(this.defaultNode.stats().idsIssued()).isEqualTo(6);
		}
	}

	@Test
	void failsForANameNoNodeHasNamingTheEntityAndTheNodesThereAre() {
		Map<String, Object> settings = TestHibernate.settings(this.dataSource);
		settings.put(CridIdentifierGenerator.NODE_SETTING, this.defaultNode);
		settings.put(CridIdentifierGenerator.NODES_SETTING,
				Map.of("public", this.publicNode, "private", this.publicNode));
		assertBootFailure(settings, FieldUnknownNodeEntity.class, FieldNamedNodeEntity.class)
			.startsWith("The identifier of entity " + FieldUnknownNodeEntity.class.getName() + " (field 'id'")
			.contains(
					"takes crid IDs from node \"publc\", which is not among the nodes known: default, private, public.")
			.contains("\"dev.crid.nodes\"")
			.doesNotContain(FieldNamedNodeEntity.class.getName());
	}

	@Test
	void failsForANamedNodeWhenNoNodesAreSetSayingWhereToPutThem() {
		Map<String, Object> settings = TestHibernate.settings(this.dataSource);
		settings.put(CridIdentifierGenerator.NODE_SETTING, this.defaultNode);
		assertBootFailure(settings, ClassNamedNodeEntity.class, FieldLongEntity.class)
			.startsWith("The identifier of entity " + ClassNamedNodeEntity.class.getName())
			.contains("takes crid IDs from node \"public\"")
			.contains("\"dev.crid.nodes\" (CridIdentifierGenerator.NODES_SETTING) is not set")
			.contains("Put the named nodes under \"dev.crid.nodes\"")
			.contains("crid.nodes.public.*");
	}

	@Test
	void reportsUnknownNodesWithTheOtherProblemsAtOnce() {
		Map<String, Object> settings = TestHibernate.settings(this.dataSource);
		settings.put(CridIdentifierGenerator.NODES_SETTING, Map.of("private", this.publicNode));
		assertBootFailure(settings, FieldUnknownNodeEntity.class, ClassNamedNodeEntity.class, FieldUuidEntity.class)
			.startsWith("3 identifiers cannot take crid IDs:\n")
			.contains(FieldUnknownNodeEntity.class.getName() + " (field 'id' declared in "
					+ FieldUnknownNodeEntity.class.getName() + ") takes crid IDs from node \"publc\"")
			.contains(ClassNamedNodeEntity.class.getName() + " (field 'id' declared in "
					+ ClassNamedNodeEntity.class.getName() + ") takes crid IDs from node \"public\", which is not "
					+ "among the nodes known: default, private.")
			.contains(FieldUuidEntity.class.getName() + " (field 'id' declared in " + FieldUuidEntity.class.getName()
					+ ") has type java.util.UUID");
	}

	@Test
	void failsForANodeEntryThatHoldsNoNode() {
		Map<String, Object> settings = TestHibernate.settings(this.dataSource);
		settings.put(CridIdentifierGenerator.NODES_SETTING, Map.of("public", "crid.nodes.public"));
		assertBootFailure(settings, FieldNamedNodeEntity.class)
			.contains("holds a java.lang.String under \"public\" instead of a CridNode or a Supplier of one");
	}

	private static Supplier<CridNode> counting(AtomicInteger asked, CridNode node) {
		return () -> {
			asked.incrementAndGet();
			return node;
		};
	}

	/**
	 * Checks that the ID decodes to the present with the node's layout, and not with the
	 * other node's: read with the wrong split of bits, an ID decodes to hours after the
	 * epoch or centuries ahead.
	 */
	private void assertIssuedBy(CridNode node, long id) {
		CridNode other = (node == this.defaultNode) ? this.publicNode : this.defaultNode;
		assertThat(node.parser().parse(id).timestamp()).isCloseTo(Instant.now(), within(5, ChronoUnit.SECONDS));
		assertThat(Duration.between(other.parser().parse(id).timestamp(), Instant.now()).abs())
			.as("distance from now, read with the other node's layout")
			.isGreaterThan(Duration.ofHours(1));
	}

	private static TestHibernate build(Map<String, Object> settings, Class<?>... entities) {
		return TestHibernate.build(settings, List.of(entities));
	}

	private static AbstractStringAssert<?> assertBootFailure(Map<String, Object> settings, Class<?>... entities) {
		Throwable failure = catchThrowable(() -> build(settings, entities).close());
		assertThat(failure).isInstanceOf(HibernateException.class);
		return assertThat(failure.getMessage());
	}

}

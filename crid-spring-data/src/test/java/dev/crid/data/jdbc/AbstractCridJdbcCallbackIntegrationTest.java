package dev.crid.data.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.data.jdbc.core.JdbcAggregateTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.crid.CridId;
import dev.crid.CridNode;
import dev.crid.data.CridJdbcCallback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.within;

/**
 * Spring Data JDBC aggregates with {@code @Id @Crid} get their IDs from the node when
 * they are first saved, on a real database, with no Hibernate on the classpath; an
 * aggregate with {@code @Crid("public")} from the node of that name, whose layout
 * differs, so that its IDs tell it. One short subclass per database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractCridJdbcCallbackIntegrationTest {

	private static final List<String> TABLES = List.of("crid_data_parcel", "crid_data_label", "crid_data_token",
			"crid_data_counter", "crid_data_crate");

	private DataSource dataSource;

	private AnnotationConfigApplicationContext context;

	private JdbcTemplate jdbc;

	/**
	 * Returns a data source for the database under test; called once per class.
	 * @return the data source
	 */
	protected abstract DataSource createDataSource();

	/**
	 * Releases the data source.
	 * @param dataSource the data source {@link #createDataSource()} returned
	 */
	protected void closeDataSource(DataSource dataSource) {
		if (dataSource instanceof AutoCloseable closeable) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}
	}

	@BeforeAll
	void startApplication() throws SQLException {
		this.dataSource = createDataSource();
		try (Connection connection = this.dataSource.getConnection();
				Statement statement = connection.createStatement()) {
			dropTables(statement);
			statement.execute("CREATE TABLE crid_data_parcel (id BIGINT PRIMARY KEY, label VARCHAR(100))");
			statement.execute("CREATE TABLE crid_data_label (id VARCHAR(20) PRIMARY KEY, caption VARCHAR(100))");
			statement.execute("CREATE TABLE crid_data_token (id BIGINT PRIMARY KEY, owner VARCHAR(100))");
			statement.execute("CREATE TABLE crid_data_counter (id BIGINT PRIMARY KEY, hits BIGINT NOT NULL)");
			statement.execute("CREATE TABLE crid_data_crate (id BIGINT PRIMARY KEY, content VARCHAR(100))");
		}
		this.context = new AnnotationConfigApplicationContext();
		this.context.registerBean(DataSource.class, () -> this.dataSource);
		this.context.register(JdbcTestConfiguration.class);
		this.context.refresh();
		this.jdbc = new JdbcTemplate(this.dataSource);
	}

	@AfterAll
	void stopApplication() throws SQLException {
		if (this.dataSource != null) {
			try (Connection connection = this.dataSource.getConnection();
					Statement statement = connection.createStatement()) {
				dropTables(statement);
			}
		}
		if (this.context != null) {
			this.context.close();
		}
		if (this.dataSource != null) {
			closeDataSource(this.dataSource);
		}
	}

	private static void dropTables(Statement statement) throws SQLException {
		for (String table : TABLES) {
			statement.execute("DROP TABLE IF EXISTS " + table);
		}
	}

	@Test
	void savingAnImmutableAggregateWithoutAnIdInsertsItWithTheNodesNextId() {
		ParcelRepository parcels = this.context.getBean(ParcelRepository.class);
		Parcel saved = parcels.save(new Parcel(null, "books"));
		Parcel other = parcels.save(new Parcel(null, "lamps"));
		assertThat(saved.id()).isPositive();
		assertThat(other.id()).isNotEqualTo(saved.id());
		assertIssuedByTheNode(saved.id());
		assertThat(parcels.findById(saved.id())).contains(saved);
		assertThat(
				this.jdbc.queryForObject("SELECT label FROM crid_data_parcel WHERE id = ?", String.class, saved.id()))
			.isEqualTo("books");
	}

	@Test
	void aStringIdIsSetInPlaceInDecimal() {
		JdbcAggregateTemplate template = this.context.getBean(JdbcAggregateTemplate.class);
		Label label = new Label("fragile");
		Label saved = template.save(label);
		assertThat(saved).isSameAs(label);
		assertThat(saved.getId()).matches("[1-9][0-9]*");
		assertIssuedByTheNode(Long.parseLong(saved.getId()));
		assertThat(template.findById(saved.getId(), Label.class).getCaption()).isEqualTo("fragile");
	}

	@Test
	void aCridIdIsStoredAsItsNumber() {
		JdbcAggregateTemplate template = this.context.getBean(JdbcAggregateTemplate.class);
		Token saved = template.save(new Token(null, "ada"));
		assertThat(saved.id()).isNotNull();
		assertIssuedByTheNode(saved.id().value());
		assertThat(this.jdbc.queryForObject("SELECT owner FROM crid_data_token WHERE id = ?", String.class,
				saved.id().value()))
			.isEqualTo("ada");
		assertThat(template.findById(saved.id(), Token.class)).isEqualTo(saved);
	}

	@Test
	void aPrimitiveLongIdIsUnsetWhileZero() {
		JdbcAggregateTemplate template = this.context.getBean(JdbcAggregateTemplate.class);
		Counter saved = template.save(new Counter(7));
		assertThat(saved.id).isPositive();
		assertIssuedByTheNode(saved.id);
		assertThat(this.jdbc.queryForObject("SELECT hits FROM crid_data_counter WHERE id = ?", Long.class, saved.id))
			.isEqualTo(7);
	}

	@Test
	void anIdThatIsSetIsLeftAlone() {
		JdbcAggregateTemplate template = this.context.getBean(JdbcAggregateTemplate.class);
		long chosen = 4_242_424_242L;
		Parcel inserted = template.insert(new Parcel(chosen, "preset"));
		assertThat(inserted.id()).isEqualTo(chosen);
		assertThat(this.jdbc.queryForObject("SELECT label FROM crid_data_parcel WHERE id = ?", String.class, chosen))
			.isEqualTo("preset");
		Parcel updated = template.save(new Parcel(chosen, "changed"));
		assertThat(updated.id()).isEqualTo(chosen);
		assertThat(this.jdbc.queryForObject("SELECT COUNT(*) FROM crid_data_parcel WHERE id = ?", Long.class, chosen))
			.isOne();
	}

	@Test
	void savingManyAggregatesAtOnceGivesEachItsOwnId() {
		ParcelRepository parcels = this.context.getBean(ParcelRepository.class);
		List<Parcel> saved = (List<Parcel>) parcels
			.saveAll(List.of(new Parcel(null, "a"), new Parcel(null, "b"), new Parcel(null, "c")));
		assertThat(saved).extracting(Parcel::id).doesNotContainNull().doesNotHaveDuplicates();
	}

	@Test
	void eachAggregateGetsItsIdFromTheNodeItsCridNames() {
		JdbcAggregateTemplate template = this.context.getBean(JdbcAggregateTemplate.class);
		CridNode defaultNode = this.context.getBean("cridNode", CridNode.class);
		CridNode publicNode = this.context.getBean("publicCridNode", CridNode.class);
		long issuedByPublic = publicNode.stats().idsIssued();
		long issuedByDefault = defaultNode.stats().idsIssued();
		Crate crate = template.save(new Crate(null, "apples"));
		Parcel parcel = template.save(new Parcel(null, "pears"));
		assertDecodesToNowWith(publicNode, defaultNode, crate.id());
		assertDecodesToNowWith(defaultNode, publicNode, parcel.id());
		assertThat(publicNode.stats().idsIssued() - issuedByPublic).isOne();
		assertThat(defaultNode.stats().idsIssued() - issuedByDefault).isOne();
		assertThat(
				this.jdbc.queryForObject("SELECT content FROM crid_data_crate WHERE id = ?", String.class, crate.id()))
			.isEqualTo("apples");
		assertThat(template.findById(crate.id(), Crate.class)).isEqualTo(crate);
	}

	@Test
	void verifyAcceptsEveryAggregateWhenEachNamesANodeThereIs() {
		assertThatCode(() -> this.context.getBean(CridJdbcCallback.class).verify()).doesNotThrowAnyException();
	}

	@Test
	void hibernateIsNotOnTheClasspath() {
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName("org.hibernate.SessionFactory"));
	}

	/**
	 * The ID decodes to the present with the issuing node's layout, and far from it with
	 * the other's.
	 */
	private static void assertDecodesToNowWith(CridNode issuer, CridNode other, long id) {
		assertThat(issuer.parser().parse(id).timestamp()).isCloseTo(Instant.now(), within(5, ChronoUnit.SECONDS));
		assertThat(Duration.between(other.parser().parse(id).timestamp(), Instant.now()).abs())
			.as("distance from now, read with the other node's layout")
			.isGreaterThan(Duration.ofHours(1));
	}

	private void assertIssuedByTheNode(long id) {
		CridNode node = this.context.getBean("cridNode", CridNode.class);
		assertThat(node.parser().parse(CridId.of(id)).sequence()).isNotNegative();
		assertThat(node.stats().idsIssued()).isPositive();
	}

}

package dev.crid.data.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Spring Data JDBC aggregates with {@code @Id @Crid} get their IDs from the node when they are first saved,
 * on a real database, with no Hibernate on the classpath. One short subclass per database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractCridJdbcCallbackIntegrationTest {

	private static final List<String> TABLES = List.of("crid_data_parcel", "crid_data_label", "crid_data_token",
			"crid_data_counter");

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
		try (Connection connection = this.dataSource.getConnection(); Statement statement = connection.createStatement()) {
			dropTables(statement);
			statement.execute("CREATE TABLE crid_data_parcel (id BIGINT PRIMARY KEY, label VARCHAR(100))");
			statement.execute("CREATE TABLE crid_data_label (id VARCHAR(20) PRIMARY KEY, caption VARCHAR(100))");
			statement.execute("CREATE TABLE crid_data_token (id BIGINT PRIMARY KEY, owner VARCHAR(100))");
			statement.execute("CREATE TABLE crid_data_counter (id BIGINT PRIMARY KEY, hits BIGINT NOT NULL)");
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
		assertThat(this.jdbc.queryForObject("SELECT label FROM crid_data_parcel WHERE id = ?", String.class, saved.id()))
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
	void hibernateIsNotOnTheClasspath() {
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName("org.hibernate.SessionFactory"));
	}

	private void assertIssuedByTheNode(long id) {
		CridNode node = this.context.getBean(CridNode.class);
		assertThat(node.parser().parse(CridId.of(id)).sequence()).isNotNegative();
		assertThat(node.stats().idsIssued()).isPositive();
	}

}

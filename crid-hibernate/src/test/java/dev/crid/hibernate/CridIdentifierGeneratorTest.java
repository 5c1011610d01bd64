package dev.crid.hibernate;

import dev.crid.CridId;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The generator's contract with Hibernate, outside a session factory.
 */
class CridIdentifierGeneratorTest {

	@Test
	void generatesOnInsertOnlyAndBeforeTheStatementSoBatchingStaysOn() {
		CridIdentifierGenerator generator = new CridIdentifierGenerator();
		assertThat(generator.getEventTypes()).isEqualTo(EventTypeSets.INSERT_ONLY);
		assertThat(generator.generatedOnExecution()).isFalse();
		assertThat(generator.allowAssignedIdentifiers()).isFalse();
	}

	@Test
	void refusesToGenerateBeforeHibernateInitializedIt() {
		assertThatIllegalStateException()
			.isThrownBy(() -> new CridIdentifierGenerator().generate(null, null, null, EventType.INSERT))
			.withMessageContaining("not initialized");
	}

	@Test
	void nodeSettingKeepsItsPublishedName() {
		assertThat(CridIdentifierGenerator.NODE_SETTING).isEqualTo("dev.crid.node");
	}

	@Test
	void supportsExactlyTheDocumentedIdentifierTypes() {
		assertThat(IdType.of(long.class)).isEqualTo(IdType.LONG);
		assertThat(IdType.of(Long.class)).isEqualTo(IdType.LONG);
		assertThat(IdType.of(String.class)).isEqualTo(IdType.STRING);
		assertThat(IdType.of(CridId.class)).isEqualTo(IdType.CRID_ID);
		assertThat(IdType.of(Integer.class)).isNull();
		assertThat(IdType.of(int.class)).isNull();
		assertThat(IdType.of(java.util.UUID.class)).isNull();
		assertThat(IdType.of(Object.class)).isNull();
	}

}

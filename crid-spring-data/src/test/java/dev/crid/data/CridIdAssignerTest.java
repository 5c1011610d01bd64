package dev.crid.data;

import java.util.Set;

import org.junit.jupiter.api.Test;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;

import dev.crid.CridNode;
import dev.crid.InMemoryRegistry;
import dev.crid.InvalidConfigException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the callbacks refuse, and what they let through, without a database.
 */
class CridIdAssignerTest {

	@Test
	void verifyNamesEveryAggregateAndFieldThatMisusesCrid() {
		RelationalMappingContext context = mappingContext(IntegerAggregate.class, NotTheId.class, NamedNode.class,
				Fine.class);
		assertThatExceptionOfType(InvalidConfigException.class).isThrownBy(() -> new CridIdAssigner(node(), context).verify())
			.satisfies((ex) -> assertThat(ex.violations()).hasSize(3))
			.withMessageContaining(IntegerAggregate.class.getName() + ".id is \"java.lang.Integer\" but must be a long, "
					+ "java.lang.Long, java.lang.String (decimal) or dev.crid.CridId to take a crid ID from @dev.crid.data.Crid")
			.withMessageContaining(NotTheId.class.getName() + ".reference is \"@dev.crid.data.Crid\" but must annotate the "
					+ "aggregate's @Id only")
			.withMessageContaining(NamedNode.class.getName() + ".id is \"@dev.crid.data.Crid(\"orders\")\" but must name no node")
			.withMessageNotContaining(Fine.class.getName());
	}

	@Test
	void anAggregateThatMisusesCridIsRefusedAtItsFirstSaveWhenNotVerifiedBefore() {
		RelationalMappingContext context = new RelationalMappingContext();
		CridJdbcCallback callback = new CridJdbcCallback(node(), context);
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> callback.onBeforeConvert(new IntegerAggregate(null)))
			.withMessageContaining(IntegerAggregate.class.getName() + ".id");
	}

	@Test
	void anAggregateWithoutCridPassesThroughUntouched() {
		RelationalMappingContext context = mappingContext(Plain.class);
		CridNode node = node();
		Plain plain = new Plain(null);
		assertThat(new CridJdbcCallback(node, context).onBeforeConvert(plain)).isSameAs(plain);
		assertThat(plain.id).isNull();
		assertThat(node.stats().idsIssued()).isZero();
	}

	@Test
	void aMisuseDoesNotStopTheOtherAggregates() {
		RelationalMappingContext context = mappingContext(Fine.class);
		CridJdbcCallback callback = new CridJdbcCallback(node(), context);
		Fine fine = (Fine) callback.onBeforeConvert(new Fine(null));
		assertThat(fine.id()).isPositive();
	}

	private static CridNode node() {
		return CridNode.builder(new InMemoryRegistry()).build();
	}

	private static RelationalMappingContext mappingContext(Class<?>... types) {
		RelationalMappingContext context = new RelationalMappingContext();
		context.setInitialEntitySet(Set.of(types));
		context.afterPropertiesSet();
		return context;
	}

	record IntegerAggregate(@Id @Crid Integer id) {
	}

	record NotTheId(@Id Long id, @Crid Long reference) {
	}

	record NamedNode(@Id @Crid("orders") Long id) {
	}

	record Fine(@Id @Crid Long id) {
	}

	static class Plain {

		@Id
		Long id;

		Plain(Long id) {
			this.id = id;
		}

	}

}

package dev.crid.data;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.sql.SqlIdentifier;

import dev.crid.CridNode;
import dev.crid.InMemoryRegistry;
import dev.crid.InvalidConfigException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * What the callbacks refuse, and what they let through, without a database; and which
 * node each aggregate's ID comes from, told by the ID itself: the node named
 * {@code public} splits the bits differently from the default node.
 */
class CridIdAssignerTest {

	@Test
	void verifyNamesEveryAggregateAndFieldThatMisusesCrid() {
		RelationalMappingContext context = mappingContext(IntegerAggregate.class, NotTheId.class, NamedNode.class,
				Fine.class);
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> new CridIdAssigner(node(), context).verify())
			.satisfies((ex) -> assertThat(ex.violations()).hasSize(3))
			.withMessageContaining(IntegerAggregate.class.getName()
					+ ".id is \"java.lang.Integer\" but must be a long, "
					+ "java.lang.Long, java.lang.String (decimal) or dev.crid.CridId to take a crid ID from @dev.crid.data.Crid")
			.withMessageContaining(NotTheId.class.getName()
					+ ".reference is \"@dev.crid.data.Crid\" but must annotate the " + "aggregate's @Id only")
			.withMessageContaining(
					NamedNode.class.getName() + ".id is \"@dev.crid.data.Crid(\"orders\")\" but must name a "
							+ "node there is; the nodes known are: default")
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

	@Test
	void eachAggregateTakesItsIdFromTheNodeItNames() {
		CridNode defaultNode = node();
		CridNode publicNode = publicNode();
		RelationalMappingContext context = mappingContext(Fine.class, PublicAggregate.class, DefaultNamed.class);
		CridJdbcCallback callback = new CridJdbcCallback(Map.of("default", defaultNode, "public", publicNode), context);
		callback.verify();
		PublicAggregate crate = (PublicAggregate) callback.onBeforeConvert(new PublicAggregate(null));
		Fine fine = (Fine) callback.onBeforeConvert(new Fine(null));
		DefaultNamed named = (DefaultNamed) callback.onBeforeConvert(new DefaultNamed(null));
		assertIssuedBy(publicNode, defaultNode, crate.id());
		assertIssuedBy(defaultNode, publicNode, fine.id());
		assertIssuedBy(defaultNode, publicNode, named.id());
		assertThat(publicNode.stats().idsIssued()).isEqualTo(1);
		assertThat(defaultNode.stats().idsIssued()).isEqualTo(2);
	}

	@Test
	void theR2dbcCallbackTakesEachAggregatesIdFromTheNodeItNamesToo() {
		CridNode defaultNode = node();
		CridNode publicNode = publicNode();
		RelationalMappingContext context = mappingContext(Fine.class, PublicAggregate.class);
		CridR2dbcCallback callback = new CridR2dbcCallback(Map.of("default", defaultNode, "public", publicNode),
				context);
		callback.verify();
		PublicAggregate crate = (PublicAggregate) Mono
			.from(callback.onBeforeConvert(new PublicAggregate(null), SqlIdentifier.unquoted("crate")))
			.block(Duration.ofSeconds(10));
		Fine fine = (Fine) Mono.from(callback.onBeforeConvert(new Fine(null), SqlIdentifier.unquoted("fine")))
			.block(Duration.ofSeconds(10));
		assertIssuedBy(publicNode, defaultNode, crate.id());
		assertIssuedBy(defaultNode, publicNode, fine.id());
	}

	@Test
	void verifyRefusesANameNoNodeHasNamingTheNodesThereAre() {
		RelationalMappingContext context = mappingContext(MisspeltAggregate.class, PublicAggregate.class, Fine.class);
		Map<String, CridNode> nodes = Map.of("default", node(), "public", publicNode(), "archive", node());
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> new CridJdbcCallback(nodes, context).verify())
			.satisfies((ex) -> assertThat(ex.violations()).singleElement()
				.satisfies((violation) -> assertThat(violation.setting())
					.isEqualTo(MisspeltAggregate.class.getName() + ".id")))
			.withMessageContaining(MisspeltAggregate.class.getName() + ".id is \"@dev.crid.data.Crid(\"publc\")\" but "
					+ "must name a node there is; the nodes known are: archive, default, public");
	}

	@Test
	void anUnnamedCridNeedsANodeNamedDefault() {
		RelationalMappingContext context = mappingContext(Fine.class, DefaultNamed.class, PublicAggregate.class);
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> new CridJdbcCallback(Map.of("public", publicNode()), context).verify())
			.satisfies((ex) -> assertThat(ex.violations()).hasSize(2))
			.withMessageContaining(Fine.class.getName() + ".id is \"@dev.crid.data.Crid\" but must name a node there "
					+ "is, and @Crid without a name means node \"default\", which is not among the nodes known: public")
			.withMessageContaining(
					DefaultNamed.class.getName() + ".id is \"@dev.crid.data.Crid(\"default\")\" but must "
							+ "name a node there is; the nodes known are: public")
			.withMessageNotContaining(PublicAggregate.class.getName());
	}

	@Test
	void aNameNoNodeHasIsRefusedAtTheFirstSaveWhenNotVerifiedBefore() {
		CridNode defaultNode = node();
		CridJdbcCallback jdbc = new CridJdbcCallback(Map.of("default", defaultNode), new RelationalMappingContext());
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> jdbc.onBeforeConvert(new PublicAggregate(null)))
			.withMessageContaining(PublicAggregate.class.getName() + ".id is \"@dev.crid.data.Crid(\"public\")\"")
			.withMessageContaining("the nodes known are: default");
		CridR2dbcCallback r2dbc = new CridR2dbcCallback(Map.of("default", defaultNode), new RelationalMappingContext());
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(
					() -> Mono.from(r2dbc.onBeforeConvert(new PublicAggregate(null), SqlIdentifier.unquoted("crate")))
						.block(Duration.ofSeconds(10)))
			.withMessageContaining("the nodes known are: default");
		assertThat(defaultNode.stats().idsIssued()).isZero();
	}

	@Test
	void theSingleNodeConstructorsMeanADefaultNodeOnly() {
		CridNode defaultNode = node();
		RelationalMappingContext context = mappingContext(Fine.class, DefaultNamed.class);
		CridJdbcCallback jdbc = new CridJdbcCallback(defaultNode, context);
		jdbc.verify();
		assertIssuedBy(defaultNode, publicNode(), ((Fine) jdbc.onBeforeConvert(new Fine(null))).id());
		assertIssuedBy(defaultNode, publicNode(), ((DefaultNamed) jdbc.onBeforeConvert(new DefaultNamed(null))).id());
		CridR2dbcCallback r2dbc = new CridR2dbcCallback(defaultNode, context);
		r2dbc.verify();
		Fine fine = (Fine) Mono.from(r2dbc.onBeforeConvert(new Fine(null), SqlIdentifier.unquoted("fine")))
			.block(Duration.ofSeconds(10));
		assertIssuedBy(defaultNode, publicNode(), fine.id());
		assertThatExceptionOfType(InvalidConfigException.class)
			.isThrownBy(() -> new CridR2dbcCallback(defaultNode, mappingContext(PublicAggregate.class)).verify())
			.withMessageContaining("the nodes known are: default");
	}

	@Test
	void refusesNullNodes() {
		RelationalMappingContext context = new RelationalMappingContext();
		Map<String, CridNode> withNull = new HashMap<>();
		withNull.put("public", null);
		assertThatIllegalArgumentException().isThrownBy(() -> new CridJdbcCallback(withNull, context))
			.withMessageContaining("nodes maps \"public\" to null");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new CridR2dbcCallback((Map<String, CridNode>) null, context))
			.withMessageContaining("nodes is null");
		assertThatIllegalArgumentException().isThrownBy(() -> new CridJdbcCallback((CridNode) null, context))
			.withMessageContaining("node is null");
	}

	/**
	 * Checks that the ID decodes to the present with the issuing node's layout and not
	 * with the other's, whose split of the bits differs.
	 */
	private static void assertIssuedBy(CridNode issuer, CridNode other, long id) {
		assertThat(issuer.parser().parse(id).timestamp()).isCloseTo(Instant.now(), within(5, ChronoUnit.SECONDS));
		assertThat(Duration.between(other.parser().parse(id).timestamp(), Instant.now()).abs())
			.as("distance from now, read with the other node's layout")
			.isGreaterThan(Duration.ofHours(1));
	}

	/**
	 * A node with 41 timestamp bits and 22 sequence bits, where the default layout has 31
	 * and 32.
	 */
	private static CridNode publicNode() {
		return CridNode.builder(new InMemoryRegistry()).timestampBits(41).sequenceBits(22).build();
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

	record PublicAggregate(@Id @Crid("public") Long id) {
	}

	record DefaultNamed(@Id @Crid("default") Long id) {
	}

	record MisspeltAggregate(@Id @Crid("publc") Long id) {
	}

	static class Plain {

		@Id
		Long id;

		Plain(Long id) {
			this.id = id;
		}

	}

}

package dev.crid.autoconfigure.hibernate;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;
import dev.crid.CridNode;
import dev.crid.hibernate.CridIdentifierGenerator;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.CridNodes;
import org.hibernate.SessionFactory;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CridHibernateAutoConfiguration}. The customizer at work in a JPA
 * application on PostgreSQL is tested in the starter module.
 */
class CridHibernateAutoConfigurationTest {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(CridRegistryAutoConfiguration.class, CridAutoConfiguration.class,
				CridHibernateAutoConfiguration.class))
		.withPropertyValues("crid.registry.type=memory");

	@Test
	void putsTheNodeIntoHibernatesSettings() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(HibernatePropertiesCustomizer.class);
			Map<String, Object> settings = new HashMap<>();
			context.getBean(HibernatePropertiesCustomizer.class).customize(settings);
			assertThat(node(settings)).isSameAs(context.getBean(CridNode.class));
		});
	}

	@Test
	@SuppressWarnings("unchecked")
	void putsEveryNodeByNameIntoHibernatesSettingsForCridWithAName() {
		this.runner.withPropertyValues("crid.nodes.public.timestamp-bits=41", "crid.nodes.public.sequence-bits=22")
			.run((context) -> {
				Map<String, Object> settings = new HashMap<>();
				context.getBean(HibernatePropertiesCustomizer.class).customize(settings);
				Map<String, Supplier<CridNode>> nodes = (Map<String, Supplier<CridNode>>) settings
					.get(CridIdentifierGenerator.NODES_SETTING);
				assertThat(nodes).containsOnlyKeys("default", "public");
				CridNodes cridNodes = context.getBean(CridNodes.class);
				assertThat(nodes.get("public").get()).isSameAs(cridNodes.get("public"));
				assertThat(nodes.get("default").get()).isSameAs(context.getBean(CridNode.class));
			});
	}

	@Test
	void usesTheUsersNode() {
		CridNode own = CridNode.builder(new dev.crid.InMemoryRegistry()).build();
		this.runner
			.withBean("ownNode", CridNode.class, () -> own, (definition) -> definition.setDestroyMethodName("close"))
			.run((context) -> {
				Map<String, Object> settings = new HashMap<>();
				context.getBean(HibernatePropertiesCustomizer.class).customize(settings);
				assertThat(node(settings)).isSameAs(own);
			});
	}

	@Test
	void backsOffWithoutCridHibernate() {
		this.runner.withClassLoader(new FilteredClassLoader(CridIdentifierGenerator.class))
			.run((context) -> assertThat(context).hasSingleBean(CridNode.class)
				.doesNotHaveBean(HibernatePropertiesCustomizer.class));
	}

	@Test
	void backsOffWithoutHibernate() {
		this.runner.withClassLoader(new FilteredClassLoader(SessionFactory.class))
			.run((context) -> assertThat(context).doesNotHaveBean(HibernatePropertiesCustomizer.class));
	}

	@Test
	void backsOffWithoutSpringBootHibernate() {
		this.runner.withClassLoader(new FilteredClassLoader(HibernatePropertiesCustomizer.class))
			.run((context) -> assertThat(context).doesNotHaveBean(HibernatePropertiesCustomizer.class));
	}

	@Test
	void backsOffForTheUsersOwnCustomizer() {
		this.runner
			.withBean("cridHibernatePropertiesCustomizer", HibernatePropertiesCustomizer.class,
					() -> (settings) -> settings.put("mine", true))
			.run((context) -> {
				Map<String, Object> settings = new HashMap<>();
				context.getBean(HibernatePropertiesCustomizer.class).customize(settings);
				assertThat(settings).containsOnlyKeys("mine");
			});
	}

	@Test
	void switchedOffWithCrid() {
		this.runner.withPropertyValues("crid.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(HibernatePropertiesCustomizer.class));
	}

	/**
	 * The node the setting leads to: a lookup, made at the first insert, so Hibernate
	 * never creates it.
	 */
	private static Object node(Map<String, Object> settings) {
		assertThat(settings.get(CridIdentifierGenerator.NODE_SETTING)).isInstanceOf(Supplier.class);
		return ((Supplier<?>) settings.get(CridIdentifierGenerator.NODE_SETTING)).get();
	}

}

package dev.crid.autoconfigure.hibernate;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import dev.crid.CridNode;
import dev.crid.hibernate.CridIdentifierGenerator;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.CridNodes;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration that hands the {@link CridNode} bean to Hibernate, so that entities
 * with {@code @Id @Crid} get their IDs from it: a {@link HibernatePropertiesCustomizer}
 * puts a lookup of the node under {@link CridIdentifierGenerator#NODE_SETTING}, which the
 * generator makes at the first insert. Hibernate's start-up therefore never creates the
 * node, which is created after the database's initializers, Hibernate among them when it
 * initializes the database itself.
 */
@AutoConfiguration(after = CridAutoConfiguration.class,
		beforeName = "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration")
@ConditionalOnClass(name = { "org.hibernate.SessionFactory", "dev.crid.hibernate.CridIdentifierGenerator",
		"org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer" })
@ConditionalOnBooleanProperty(name = "crid.enabled", matchIfMissing = true)
@ConditionalOnBean(CridNode.class)
public final class CridHibernateAutoConfiguration {

	CridHibernateAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean(name = "cridHibernatePropertiesCustomizer")
	HibernatePropertiesCustomizer cridHibernatePropertiesCustomizer(ObjectProvider<CridNode> cridNode,
			ObjectProvider<CridNodes> cridNodes) {
		Supplier<CridNode> lookup = cridNode::getObject;
		return (properties) -> {
			properties.put(CridIdentifierGenerator.NODE_SETTING, lookup);
			CridNodes nodes = cridNodes.getIfAvailable();
			if (nodes != null) {
				Map<String, Supplier<CridNode>> named = new LinkedHashMap<>();
				nodes.names().forEach((name) -> named.put(name, () -> nodes.get(name)));
				properties.put(CridIdentifierGenerator.NODES_SETTING, named);
			}
		};
	}

}

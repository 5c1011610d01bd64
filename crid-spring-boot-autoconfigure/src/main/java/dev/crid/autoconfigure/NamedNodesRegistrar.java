package dev.crid.autoconfigure;

import java.util.Map;
import java.util.regex.Pattern;

import dev.crid.CridNode;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.support.AutowireCandidateQualifier;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Registers a {@link CridNode} bean for each named node of {@code crid.nodes.<name>},
 * qualified by its name and never injected where only the type is asked for, so an
 * unqualified {@code CridNode} stays the default node and
 * {@code @ConditionalOnMissingBean(CridNode.class)} ignores them. Each is created by
 * {@link NodeFactory#create(String)} and closed on shutdown. A name that is not an
 * identifier, or that is {@value CridNodes#DEFAULT_NODE}, stops start-up.
 */
final class NamedNodesRegistrar implements BeanDefinitionRegistryPostProcessor {

	/** The bean that creates the named nodes. */
	static final String FACTORY_BEAN = "cridNodeFactory";

	private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");

	private final Environment environment;

	NamedNodesRegistrar(Environment environment) {
		this.environment = environment;
	}

	/**
	 * The names of {@code crid.nodes}, in the order the configuration gives them.
	 */
	static Map<String, CridProperties.Node> bind(Environment environment) {
		return Binder.get(environment)
			.bind("crid.nodes", Bindable.mapOf(String.class, CridProperties.Node.class))
			.orElse(Map.of());
	}

	/**
	 * The name of a named node's bean: {@code <name>CridNode}.
	 */
	static String beanName(String name) {
		return name + "CridNode";
	}

	@Override
	public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
		for (String name : bind(this.environment).keySet()) {
			check(name);
			if (registry.containsBeanDefinition(beanName(name))) {
				continue; // ahead-of-time processing registered it already, from its own
							// generated code
			}
			RootBeanDefinition definition = new RootBeanDefinition(CridNode.class);
			definition.setFactoryBeanName(FACTORY_BEAN);
			definition.setFactoryMethodName("create");
			definition.getConstructorArgumentValues().addIndexedArgumentValue(0, name);
			definition.setDestroyMethodName("close");
			definition.setDefaultCandidate(false);
			definition.addQualifier(new AutowireCandidateQualifier(Qualifier.class, name));
			registry.registerBeanDefinition(beanName(name), definition);
		}
	}

	private static void check(String name) {
		if (!NAME.matcher(name).matches() || CridNodes.DEFAULT_NODE.equalsIgnoreCase(name)) {
			throw new CridConfigurationException(
					"The crid configuration is invalid:\n\n    Property: crid.nodes." + name + "\n    Value: '" + name
							+ "'\n    Reason: "
							+ (CridNodes.DEFAULT_NODE.equalsIgnoreCase(name)
									? "'" + CridNodes.DEFAULT_NODE + "' is the name of the node that crid.* configures"
									: "a node's name must be letters, digits and underscores, starting with a letter")
							+ "\n",
					"Update your application's configuration:\n    - Name the node with letters, digits and "
							+ "underscores, starting with a letter and other than '" + CridNodes.DEFAULT_NODE
							+ "', e.g. crid.nodes.public.timestamp-bits=41; set the default node's properties "
							+ "under crid.* itself.",
					null);
		}
	}

}

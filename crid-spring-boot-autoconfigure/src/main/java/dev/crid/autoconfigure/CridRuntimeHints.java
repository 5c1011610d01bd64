package dev.crid.autoconfigure;

import java.lang.reflect.Member;
import java.util.List;

import dev.crid.hibernate.Crid;
import dev.crid.hibernate.CridGeneratorIntegrator;
import dev.crid.hibernate.CridIdentifierGenerator;
import dev.crid.hibernate.CridTypeContributor;
import dev.crid.autoconfigure.jackson.CridJacksonModule;
import org.hibernate.boot.model.TypeContributor;
import org.hibernate.generator.GeneratorCreationContext;
import org.hibernate.integrator.spi.Integrator;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.util.ClassUtils;

/**
 * What a native image must keep for crid, which loads these reflectively or from the
 * classpath: the registry's schema scripts ({@code dev/crid/jdbc/schema-*.sql}), the
 * Hibernate generator's constructors and the service files through which Hibernate finds
 * crid's type contributor and integrator, the Jackson module's constructors, and the
 * classes whose presence the auto-configuration checks by name. Registered in
 * {@code META-INF/spring/aot.factories}; each part only when its module is on the
 * classpath.
 */
class CridRuntimeHints implements RuntimeHintsRegistrar {

	/** The annotation the Jackson module looks for, when crid-hibernate is present. */
	static final String CRID_ANNOTATION_CLASS = "dev.crid.hibernate.Crid";

	private static final String GENERATOR = "dev.crid.hibernate.CridIdentifierGenerator";

	private static final String HIBERNATE = "org.hibernate.generator.GeneratorCreationContext";

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		registerPresenceChecks(hints, classLoader);
		if (ClassUtils.isPresent(RegistryConfigurations.JDBC_REGISTRY_CLASS, classLoader)) {
			hints.resources().registerPattern("dev/crid/jdbc/schema-*.sql");
		}
		if (ClassUtils.isPresent(GENERATOR, classLoader) && ClassUtils.isPresent(HIBERNATE, classLoader)) {
			registerHibernate(hints);
		}
		if (ClassUtils.isPresent("tools.jackson.databind.JacksonModule", classLoader)) {
			hints.reflection().registerType(CridJacksonModule.class, MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
		}
	}

	/**
	 * {@code ClassUtils.isPresent} works in a native image only for types it was told
	 * about.
	 */
	private static void registerPresenceChecks(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		for (String name : new String[] { RegistryConfigurations.JDBC_REGISTRY_CLASS,
				RegistryConfigurations.JDBC_TEMPLATE_CLASS, RegistryConfigurations.EMBEDDED_DATABASE_CLASS,
				CRID_ANNOTATION_CLASS }) {
			if (ClassUtils.isPresent(name, classLoader)) {
				hints.reflection().registerType(TypeReference.of(name));
			}
		}
	}

	/**
	 * Hibernate creates the generator through one of its two public constructors, and
	 * finds the type contributor and the integrator with {@link java.util.ServiceLoader}.
	 * Kept in a method of its own so that its Hibernate types are resolved only when
	 * Hibernate is present.
	 */
	private static void registerHibernate(RuntimeHints hints) {
		List<TypeReference> annotatedMember = TypeReference.listOf(Crid.class, Member.class,
				GeneratorCreationContext.class);
		hints.reflection()
			.registerType(CridIdentifierGenerator.class,
					(type) -> type.withConstructor(annotatedMember, ExecutableMode.INVOKE)
						.withConstructor(List.of(), ExecutableMode.INVOKE));
		hints.resources().registerPattern("META-INF/services/" + TypeContributor.class.getName());
		hints.resources().registerPattern("META-INF/services/" + Integrator.class.getName());
		hints.reflection()
			.registerTypes(TypeReference.listOf(CridTypeContributor.class, CridGeneratorIntegrator.class),
					(type) -> type.withMembers(MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS));
	}

}

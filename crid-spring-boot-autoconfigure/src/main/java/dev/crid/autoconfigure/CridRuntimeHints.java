package dev.crid.autoconfigure;

import java.lang.reflect.Member;
import java.util.List;

import dev.crid.hibernate.Crid;
import dev.crid.hibernate.CridGeneratorIntegrator;
import dev.crid.hibernate.CridIdentifierGenerator;
import dev.crid.hibernate.CridTypeContributor;
import dev.crid.jackson.CridJacksonModule;
import org.hibernate.boot.model.TypeContributor;
import org.hibernate.generator.GeneratorCreationContext;
import org.hibernate.integrator.spi.Integrator;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;
import org.springframework.util.ClassUtils;

/**
 * What a native image must keep for crid, which loads these reflectively or from the
 * classpath: the named nodes' properties, which are bound by hand, the Hibernate
 * generator's constructors and the service files through which Hibernate finds crid's
 * type contributor and integrator, the Jackson module's constructors, and the annotations
 * whose presence the Jackson module checks by name. Registered in
 * {@code META-INF/spring/aot.factories}; each part only when its module is on the
 * classpath.
 */
class CridRuntimeHints implements RuntimeHintsRegistrar {

	/** The annotation the Jackson module looks for, when crid-hibernate is present. */
	static final String CRID_ANNOTATION_CLASS = "dev.crid.hibernate.Crid";

	/**
	 * The annotation the Jackson module looks for, when crid-spring-data is present.
	 */
	static final String DATA_CRID_ANNOTATION_CLASS = "dev.crid.data.Crid";

	private static final String GENERATOR = "dev.crid.hibernate.CridIdentifierGenerator";

	private static final String HIBERNATE = "org.hibernate.generator.GeneratorCreationContext";

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		registerPresenceChecks(hints, classLoader);
		BindableRuntimeHintsRegistrar.forTypes(NodeProperties.class).registerHints(hints, classLoader);
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
		for (String annotation : List.of(CRID_ANNOTATION_CLASS, DATA_CRID_ANNOTATION_CLASS)) {
			if (ClassUtils.isPresent(annotation, classLoader)) {
				hints.reflection().registerType(TypeReference.of(annotation));
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

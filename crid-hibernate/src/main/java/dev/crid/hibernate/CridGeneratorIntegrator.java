package dev.crid.hibernate;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Member;
import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.GeneratedValue;
import org.hibernate.boot.Metadata;
import org.hibernate.boot.spi.BootstrapContext;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.integrator.spi.Integrator;
import org.hibernate.mapping.PersistentClass;
import org.hibernate.mapping.Property;
import org.hibernate.mapping.RootClass;
import org.jspecify.annotations.Nullable;

/**
 * Closes a trap of {@code @GeneratedValue(generator = "crid")}: when no {@link Crid} is in reach of such an
 * identifier (on it, on the class that declares it, or on that class's package), Hibernate does not
 * complain but quietly picks another generator: a random UUID for a {@code String} identifier, a database
 * sequence named {@code crid} for a numeric one. This integrator notes every identifier that asks for
 * {@code "crid"}, and once Hibernate has created the generators it fails the {@code SessionFactory} if any
 * of them got something other than a {@link CridIdentifierGenerator}, naming the entity, the field and
 * where to put {@code @Crid}.
 *
 * <p>Hibernate finds it on the classpath through {@link java.util.ServiceLoader}; applications do not use
 * it directly. It costs one reflective look at each entity's identifier while the {@code SessionFactory}
 * is built, and nothing afterwards.
 */
public final class CridGeneratorIntegrator implements Integrator {

	/** The generator name that asks for crid IDs. */
	static final String GENERATOR_NAME = "crid";

	/**
	 * Creates the integrator; called by Hibernate.
	 */
	public CridGeneratorIntegrator() {
	}

	/**
	 * Notes the identifiers that ask for generator {@code "crid"} and registers the check that runs once
	 * the {@code SessionFactory} is complete.
	 * @param metadata the mapping
	 * @param bootstrapContext Hibernate's bootstrap state (not used)
	 * @param sessionFactory the factory being built
	 */
	@Override
	public void integrate(Metadata metadata, BootstrapContext bootstrapContext,
			SessionFactoryImplementor sessionFactory) {
		List<CridGeneratorCheck.Request> requests = new ArrayList<>();
		for (PersistentClass entity : metadata.getEntityBindings()) {
			if (entity instanceof RootClass) {
				Member member = identifierMember(entity);
				if (member instanceof AnnotatedElement element && asksForCrid(element)) {
					requests.add(new CridGeneratorCheck.Request(entity.getEntityName(), member.getName(),
							member.getDeclaringClass().getName()));
				}
			}
		}
		if (!requests.isEmpty()) {
			sessionFactory.addObserver(new CridGeneratorCheck(requests));
		}
	}

	private static @Nullable Member identifierMember(PersistentClass entity) {
		Property identifier = entity.getIdentifierProperty();
		if (identifier == null) {
			return null;
		}
		try {
			Class<?> mappedClass = entity.getMappedClass();
			return (mappedClass != null) ? identifier.getGetter(mappedClass).getMember() : null;
		}
		catch (RuntimeException ex) {
			// Dynamic-map entities and unusual access strategies have no Java member to look at.
			return null;
		}
	}

	private static boolean asksForCrid(AnnotatedElement element) {
		GeneratedValue generatedValue = element.getAnnotation(GeneratedValue.class);
		return generatedValue != null && GENERATOR_NAME.equals(generatedValue.generator());
	}

}

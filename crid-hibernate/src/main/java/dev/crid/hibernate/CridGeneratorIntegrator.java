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
 * Checks, once Hibernate has created every identifier generator, that each identifier
 * meant for crid IDs got them, and fails the {@code SessionFactory} otherwise, with one
 * message that names every entity and field concerned and says what to change. Hibernate
 * (7.2, checked in its {@code GeneratorBinder} and
 * {@code AbstractEntityIdGeneratorResolver}) is silent in each of these cases:
 *
 * <ul>
 * <li><b>An identifier type that cannot hold a crid ID</b> (anything but {@code long},
 * {@link Long}, {@link String} and {@link dev.crid.CridId}). Every such identifier is
 * named, not only the first.</li>
 * <li><b>{@code @GeneratedValue(generator = "crid")} with no {@link Crid} in reach</b>
 * (on the identifier, on the class that declares it, or on that class's package):
 * Hibernate quietly picks another generator, a random UUID for a {@code String}
 * identifier, a database sequence named {@code crid} for a numeric one.</li>
 * <li><b>{@code @Crid} on the class or package, and {@code @GeneratedValue} with a
 * strategy other than {@code AUTO}</b> that names no other generator, such as
 * {@code @GeneratedValue(strategy = IDENTITY)}: Hibernate looks for a generator
 * annotation on the class or package only when resolving strategy {@code AUTO}, so the
 * entity gets an identity column (or a sequence, a table, a UUID) and no crid IDs. The
 * two cannot both hold, so this fails. An identifier that names a generator of its own
 * ({@code @GeneratedValue(strategy = SEQUENCE, generator = "orders")}) is left to
 * it.</li>
 * <li><b>{@code @Crid("name")} naming a node the settings do not offer</b>: the map under
 * {@link CridIdentifierGenerator#NODES_SETTING} has no key of that name (the message
 * lists the names it has, and {@code default}), or there is no such map. Hibernate knows
 * nothing of node names; left alone, this would fail only at the entity's first
 * insert.</li>
 * </ul>
 *
 * <p>
 * One case does hold both ways, and is logged as a warning instead, once per identifier,
 * naming every entity that has it (all that inherit it from one base class):
 * {@code @Crid} on the identifier itself beside a leftover {@code @GeneratedValue} with a
 * strategy other than {@code AUTO} or another generator's name. Hibernate then uses
 * {@code @Crid} and ignores {@code @GeneratedValue} entirely (it reads
 * {@code @GeneratedValue} only for an identifier without a generator annotation): the IDs
 * come from crid, the identity column or sequence is not used, and the annotation only
 * misleads its readers. Remove it. The warning goes to the {@link System.Logger} named
 * after this class.
 *
 * <p>
 * Hibernate finds it on the classpath through {@link java.util.ServiceLoader};
 * applications do not use it directly. It costs one reflective look at each entity's
 * identifier while the {@code SessionFactory} is built, and nothing afterwards.
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
	 * Notes the identifiers that carry {@code @GeneratedValue} and have {@code @Crid} in
	 * reach or name generator {@code "crid"}, and registers the check that runs once the
	 * {@code SessionFactory} is complete.
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
				if (member instanceof AnnotatedElement element) {
					GeneratedValue generatedValue = element.getAnnotation(GeneratedValue.class);
					CridGeneratorCheck.Placement placement = placement(member, element);
					if (generatedValue != null && (placement != CridGeneratorCheck.Placement.NONE
							|| GENERATOR_NAME.equals(generatedValue.generator()))) {
						requests.add(new CridGeneratorCheck.Request(entity.getEntityName(), member.getName(),
								member.getDeclaringClass().getName(), placement, generatedValue.strategy(),
								generatedValue.generator()));
					}
				}
			}
		}
		// Always: the identifier types are checked on the generators Hibernate made,
		// whatever led to them.
		sessionFactory.addObserver(new CridGeneratorCheck(requests));
	}

	/** Where the nearest {@code @Crid} is, in the order Hibernate looks. */
	private static CridGeneratorCheck.Placement placement(Member member, AnnotatedElement element) {
		if (element.isAnnotationPresent(Crid.class)) {
			return CridGeneratorCheck.Placement.IDENTIFIER;
		}
		Class<?> declaringClass = member.getDeclaringClass();
		if (declaringClass.isAnnotationPresent(Crid.class)) {
			return CridGeneratorCheck.Placement.CLASS;
		}
		Package declaringPackage = declaringClass.getPackage();
		if (declaringPackage != null && declaringPackage.isAnnotationPresent(Crid.class)) {
			return CridGeneratorCheck.Placement.PACKAGE;
		}
		return CridGeneratorCheck.Placement.NONE;
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
			// Dynamic-map entities and unusual access strategies have no Java member to
			// look at.
			return null;
		}
	}

}

package dev.crid.hibernate;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jakarta.persistence.GenerationType;
import org.hibernate.MappingException;
import org.hibernate.SessionFactory;
import org.hibernate.SessionFactoryObserver;
import org.hibernate.engine.config.spi.ConfigurationService;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.generator.Generator;
import org.hibernate.persister.entity.EntityPersister;

/**
 * Fails the {@code SessionFactory} when an identifier meant for crid IDs cannot have
 * them, and warns about a leftover {@code @GeneratedValue} beside {@code @Crid} (the
 * cases are explained on {@link CridGeneratorIntegrator}, which registers this check). It
 * also hands every crid generator of the factory the one {@link NodeSource} they share,
 * and fails for a node name the settings do not offer. It runs when the factory is
 * complete, because that is when Hibernate has created every generator. An exception
 * thrown here makes Hibernate close the factory and rethrow it to whoever was building
 * it.
 */
final class CridGeneratorCheck implements SessionFactoryObserver {

	private static final long serialVersionUID = 1L;

	private static final System.Logger logger = System.getLogger(CridGeneratorIntegrator.class.getName());

	private final List<Request> requests;

	CridGeneratorCheck(List<Request> requests) {
		this.requests = List.copyOf(requests);
	}

	@Override
	public void sessionFactoryCreated(SessionFactory factory) {
		SessionFactoryImplementor sessionFactory = factory.unwrap(SessionFactoryImplementor.class);
		List<String> problems = new ArrayList<>();
		NodeSource nodes = new NodeSource(
				sessionFactory.getServiceRegistry().requireService(ConfigurationService.class).getSettings());
		sessionFactory.getMappingMetamodel().forEachEntityDescriptor((descriptor) -> {
			if (isRoot(descriptor) && descriptor.getGenerator() instanceof CridIdentifierGenerator generator) {
				generator.bind(nodes);
				MappingException failure = generator.failure();
				if (failure != null) {
					problems.add(failure.getMessage());
				}
				String unknownNode = nodes.problem(generator.nodeName(), String.valueOf(generator.identifier()));
				if (unknownNode != null) {
					problems.add(unknownNode);
				}
			}
		});
		// The metamodel keeps its entities in no particular order; a sorted message reads
		// the same each time.
		problems.sort(null);
		// One warning per identifier, naming every entity that inherits it: a base class
		// is usually shared.
		Map<String, List<Request>> leftovers = new LinkedHashMap<>();
		for (Request request : this.requests) {
			Generator generator = sessionFactory.getMappingMetamodel()
				.getEntityDescriptor(request.entityName())
				.getGenerator();
			boolean crid = generator instanceof CridIdentifierGenerator;
			if (!crid && request.asksForCrid()) {
				problems.add(request.describeMissingCrid(generator));
			}
			else if (crid && request.hasLeftover()) {
				leftovers
					.computeIfAbsent(request.declaringClass() + '.' + request.memberName(), (key) -> new ArrayList<>())
					.add(request);
			}
		}
		leftovers.values().forEach((sharing) -> logger.log(System.Logger.Level.WARNING, describeLeftover(sharing)));
		if (problems.size() == 1) {
			throw new MappingException(problems.get(0));
		}
		if (!problems.isEmpty()) {
			throw new MappingException(
					problems.size() + " identifiers cannot take crid IDs:\n" + String.join("\n", problems));
		}
	}

	/**
	 * Describes a leftover {@code @GeneratedValue} on one identifier, shared by the given
	 * entities.
	 */
	private static String describeLeftover(List<Request> sharing) {
		Request first = sharing.get(0);
		String entities = (sharing.size() == 1) ? "entity " + first.entityName()
				: "entities " + sharing.stream().map(Request::entityName).sorted().collect(Collectors.joining(", "));
		return "The identifier of " + entities + " ('" + first.memberName() + "' declared in " + first.declaringClass()
				+ ") has both @Crid and " + first.generatedValue() + ": Hibernate uses @Crid and ignores "
				+ "@GeneratedValue, so its IDs come from crid, " + first.ignored() + ". Remove @GeneratedValue.";
	}

	private static boolean isRoot(EntityPersister descriptor) {
		return descriptor.getEntityName().equals(descriptor.getRootEntityName());
	}

	/** Where the {@code @Crid} nearest to an identifier sits. */
	enum Placement {

		/** On the identifier's field or getter. */
		IDENTIFIER,

		/** On the class that declares the identifier. */
		CLASS,

		/** On the package of the class that declares the identifier. */
		PACKAGE,

		/** Nowhere Hibernate looks. */
		NONE

	}

	/**
	 * An identifier with {@code @GeneratedValue} that has {@code @Crid} in reach or names
	 * generator {@code "crid"}.
	 *
	 * @param entityName the entity
	 * @param memberName the identifier's field or getter
	 * @param declaringClass the class that declares the identifier (an entity or a mapped
	 * superclass)
	 * @param placement where the nearest {@code @Crid} is
	 * @param strategy the strategy of {@code @GeneratedValue}
	 * @param generatorName the generator {@code @GeneratedValue} names, empty if none
	 */
	record Request(String entityName, String memberName, String declaringClass, Placement placement,
			GenerationType strategy, String generatorName) implements Serializable {

		/**
		 * Whether the identifier is meant for crid IDs: {@code @Crid} on it, generator
		 * {@code "crid"} named, or {@code @Crid} on its class or package and a strategy
		 * that names no other generator.
		 */
		boolean asksForCrid() {
			return this.placement == Placement.IDENTIFIER || namesCrid() || strategyOverridesCrid();
		}

		/**
		 * Whether {@code @Crid} is on the class or package, which Hibernate consults only
		 * for strategy AUTO.
		 */
		private boolean strategyOverridesCrid() {
			return (this.placement == Placement.CLASS || this.placement == Placement.PACKAGE)
					&& this.strategy != GenerationType.AUTO && (this.generatorName.isEmpty() || namesCrid());
		}

		/**
		 * Whether {@code @GeneratedValue} says something that Hibernate ignores because
		 * {@code @Crid} is on the identifier.
		 */
		boolean hasLeftover() {
			return this.placement == Placement.IDENTIFIER
					&& (this.strategy != GenerationType.AUTO || !(this.generatorName.isEmpty() || namesCrid()));
		}

		private boolean namesCrid() {
			return CridGeneratorIntegrator.GENERATOR_NAME.equals(this.generatorName);
		}

		String describeMissingCrid(Generator generator) {
			String chosen = (generator != null) ? generator.getClass().getName() : "no generator";
			if (strategyOverridesCrid()) {
				String where = (this.placement == Placement.CLASS) ? "class " + this.declaringClass
						: "package " + packageName();
				String keep = (this.placement == Placement.PACKAGE)
						? "move @Crid from the package onto the identifiers that take crid IDs"
						: "remove @Crid from the class";
				return identifier() + " has @Crid on its " + where + " but " + generatedValue()
						+ ", and Hibernate applies a @Crid on the class or package only for strategy AUTO: it chose "
						+ chosen
						+ ", so this entity would get no crid IDs. For crid IDs, write @GeneratedValue(generator = \""
						+ CridGeneratorIntegrator.GENERATOR_NAME + "\") without the strategy; to keep strategy "
						+ this.strategy + " for this entity, " + keep + ".";
			}
			if (this.placement != Placement.NONE) {
				return identifier() + " has @Crid in reach, but Hibernate chose " + chosen + " instead of crid IDs: "
						+ "a generator declared for it takes precedence (a @SequenceGenerator, @TableGenerator or "
						+ "@GenericGenerator in reach, or one named \"" + CridGeneratorIntegrator.GENERATOR_NAME
						+ "\"). Remove that generator.";
			}
			return identifier() + " asks for @GeneratedValue(generator = \"" + CridGeneratorIntegrator.GENERATOR_NAME
					+ "\"), but no @Crid is in reach, so Hibernate chose " + chosen + " instead of crid IDs. Put "
					+ "@dev.crid.hibernate.Crid on the identifier, on class " + this.declaringClass + ", or on package "
					+ packageName()
					+ " in its package-info.java: Hibernate looks only there, in the package of the class "
					+ "that declares the identifier.";
		}

		/** What the leftover {@code @GeneratedValue} would have given, and does not. */
		String ignored() {
			return switch (this.strategy) {
				case IDENTITY -> "not from an identity column (if the column is GENERATED ALWAYS AS IDENTITY, the "
						+ "database refuses the IDs crid assigns)";
				case SEQUENCE -> "not from a database sequence";
				case TABLE -> "not from a table generator";
				case UUID -> "not random UUIDs";
				case AUTO -> "not from generator '" + this.generatorName + "'";
			};
		}

		private String identifier() {
			return "The identifier of entity " + this.entityName + " ('" + this.memberName + "' declared in "
					+ this.declaringClass + ")";
		}

		String generatedValue() {
			List<String> attributes = new ArrayList<>();
			if (this.strategy != GenerationType.AUTO) {
				attributes.add("strategy = " + this.strategy);
			}
			if (!this.generatorName.isEmpty()) {
				attributes.add("generator = \"" + this.generatorName + "\"");
			}
			return "@GeneratedValue(" + String.join(", ", attributes) + ")";
		}

		private String packageName() {
			int dot = this.declaringClass.lastIndexOf('.');
			return (dot > 0) ? this.declaringClass.substring(0, dot) : "(the unnamed package)";
		}

	}

}

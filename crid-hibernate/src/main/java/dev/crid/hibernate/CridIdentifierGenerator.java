package dev.crid.hibernate;

import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.util.EnumSet;

import dev.crid.CridNode;
import org.hibernate.HibernateException;
import org.hibernate.MappingException;
import org.hibernate.engine.config.spi.ConfigurationService;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.generator.GeneratorCreationContext;
import org.hibernate.type.Type;
import org.jspecify.annotations.Nullable;

/**
 * The Hibernate generator behind {@link Crid}: takes each new entity's identifier from a
 * {@link CridNode} before the INSERT. Because the value is known before the statement
 * runs (unlike an {@code IDENTITY} column), Hibernate keeps batching inserts when
 * {@code hibernate.jdbc.batch_size} is set; and unlike a sequence there is no database
 * round trip per block of IDs.
 *
 * <p>
 * The node comes from the Hibernate settings under {@link #NODE_SETTING}. The Spring Boot
 * starter puts its {@code CridNode} bean there; with plain Hibernate, put it there
 * yourself:
 *
 * <pre class="code">
 * StandardServiceRegistry registry = new StandardServiceRegistryBuilder()
 *         .applySetting(CridIdentifierGenerator.NODE_SETTING, node)
 *         .build();</pre>
 *
 * <p>
 * An identifier with {@code @Crid("name")} takes its IDs from the node of that name in
 * the map under {@link #NODES_SETTING} instead ({@code @Crid("default")} is the same as
 * {@code @Crid}):
 *
 * <pre class="code">
 *         .applySetting(CridIdentifierGenerator.NODES_SETTING, Map.of("billing", billingNode))</pre>
 *
 * <p>
 * The mapping is checked while the {@code SessionFactory} is built, so a mistake there
 * stops the application from starting: an identifier type other than {@code long},
 * {@link Long}, {@link String} or {@link dev.crid.CridId} fails, naming the entity and
 * the field (every such identifier at once, not only the first), and so does an
 * identifier that names the generator {@code "crid"} while no {@link Crid} is in reach,
 * or names a node that {@link #NODES_SETTING} has no key for (see
 * {@link CridGeneratorIntegrator}, which makes these checks once Hibernate has created
 * every generator). The node is looked up only when the first ID is generated, because a
 * {@code SessionFactory} may be built where no node exists, for example by Spring's
 * ahead-of-time processing at build time; a missing node, or a setting that holds
 * something else, then fails that first insert with a message that says how to provide
 * one.
 *
 * <p>
 * Hibernate creates this generator in one of two ways, both supported: with the
 * constructor {@link #CridIdentifierGenerator(Crid, Member, GeneratorCreationContext)}
 * when {@code @Crid} sits on the identifier, and with the no-argument constructor
 * followed by {@link #initialize(Crid, Member, GeneratorCreationContext)} when it sits on
 * the class or package. Either is cheap: a type check. Generating an ID costs what
 * {@link CridNode#nextId()} costs, usually one atomic increment, after a settings lookup
 * on the first call. Thread-safe once initialized.
 */
public class CridIdentifierGenerator implements BeforeExecutionGenerator, AnnotationBasedGenerator<Crid> {

	private static final long serialVersionUID = 1L;

	/**
	 * The Hibernate setting that holds the {@link CridNode} every crid identifier is
	 * taken from: {@value}. Its value must be the node object itself (not a string), or a
	 * {@link java.util.function.Supplier} of it, asked once, at the first insert: so a
	 * container can build the {@code SessionFactory} before the node exists, as Spring
	 * Boot does when Hibernate initializes the database the node's registry lives in.
	 */
	public static final String NODE_SETTING = "dev.crid.node";

	/**
	 * The Hibernate setting that holds the named nodes, for identifiers with
	 * {@code @Crid("name")}: {@value}. Its value must be a {@link java.util.Map
	 * Map&lt;String, ?&gt;} from node name to a {@link CridNode} or a
	 * {@link java.util.function.Supplier Supplier&lt;? extends CridNode&gt;}; each
	 * supplier is asked once, at the first insert of an entity that takes its IDs from
	 * that node, so the nodes may be created after the {@code SessionFactory}. The map's
	 * keys are checked when the {@code SessionFactory} is built: an identifier naming a
	 * node the map has no key for fails it. Key {@code "default"} holds the default node
	 * when {@link #NODE_SETTING} is not set; when both are set, {@link #NODE_SETTING}
	 * wins.
	 */
	public static final String NODES_SETTING = "dev.crid.nodes";

	// Volatile: Hibernate initializes these on its bootstrap thread; sessions on any
	// thread read them.
	/** How an ID is converted to the identifier's Java type; set by initialization. */
	private volatile @Nullable IdType type;

	/**
	 * The identifier, described for the message when no node is set; set by
	 * initialization.
	 */
	private volatile @Nullable String identifier;

	/** Why the identifier cannot take crid IDs; null once initialization succeeds. */
	private volatile @Nullable MappingException failure;

	/** The name of the node the IDs come from; set by initialization. */
	private volatile String nodeName = NodeSource.DEFAULT;

	/**
	 * The nodes the session factory offers, shared by its generators; bound when the
	 * factory is built.
	 */
	private transient volatile @Nullable NodeSource source;

	// Looked up at the first generate(); two threads racing there get the same node from
	// the shared source.
	private transient volatile @Nullable CridNode node;

	/**
	 * Creates a generator that is ready only once Hibernate calls
	 * {@link #initialize(Crid, Member, GeneratorCreationContext)}; Hibernate uses this
	 * constructor when {@link Crid} sits on the class or package of the identifier.
	 */
	public CridIdentifierGenerator() {
	}

	/**
	 * Creates a generator for the given identifier; Hibernate uses this constructor when
	 * {@link Crid} sits on the identifier. It checks the identifier as
	 * {@link #initialize(Crid, Member, GeneratorCreationContext)} does.
	 * @param annotation the annotation on the identifier
	 * @param member the identifier's field or getter
	 * @param context what Hibernate knows about the entity and its settings
	 */
	public CridIdentifierGenerator(Crid annotation, Member member, GeneratorCreationContext context) {
		initialize(annotation, member, context);
	}

	/**
	 * Prepares the generator for the given identifier: checks its type and notes the
	 * node's name. The node is looked up later, when the first ID is generated. Calling
	 * it again (Hibernate does so after the three-argument constructor) repeats the same
	 * check.
	 *
	 * <p>
	 * An identifier type that cannot hold a crid ID is not thrown here but recorded, and
	 * {@link CridGeneratorIntegrator} fails the {@code SessionFactory} once Hibernate has
	 * created every generator, naming every entity and field with such a type in one
	 * message: thrown here, only the first would be reported (and, from the constructor,
	 * wrapped in Hibernate's "could not instantiate" message). A generator in that state
	 * refuses to generate.
	 * @param annotation the {@link Crid} in reach of the identifier
	 * @param member the identifier's field or getter
	 * @param context what Hibernate knows about the entity and its settings
	 */
	@Override
	public void initialize(Crid annotation, Member member, GeneratorCreationContext context) {
		Class<?> javaType = javaType(member, context);
		IdType idType = IdType.of(javaType);
		String described = describe(member, context);
		this.identifier = described;
		this.nodeName = NodeSource.nameOf(annotation);
		this.type = idType;
		this.failure = (idType != null) ? null : new MappingException(described + " has type " + javaType.getTypeName()
				+ ", which cannot hold a crid ID: use " + IdType.SUPPORTED);
	}

	/**
	 * Returns why the identifier cannot take crid IDs.
	 * @return the problem, or {@code null} if initialization succeeded
	 */
	@Nullable MappingException failure() {
		return this.failure;
	}

	private static Class<?> javaType(Member member, GeneratorCreationContext context) {
		try {
			Type type = context.getType();
			if (type != null && type.getReturnedClass() != null) {
				return type.getReturnedClass();
			}
		}
		catch (RuntimeException ex) {
			// Not resolved yet: the declared type below is what the mapping will use.
		}
		if (member instanceof Field field) {
			return field.getType();
		}
		if (member instanceof Method method) {
			return method.getReturnType();
		}
		return Object.class;
	}

	private CridNode node(SharedSessionContractImplementor session) {
		CridNode cached = this.node;
		if (cached != null) {
			return cached;
		}
		NodeSource nodes = this.source;
		if (nodes == null) {
			// Not bound by CridGeneratorCheck (its integrator was left out): this
			// generator's own view.
			nodes = new NodeSource(
					session.getFactory().getServiceRegistry().requireService(ConfigurationService.class).getSettings());
			this.source = nodes;
		}
		CridNode found = nodes.node(this.nodeName, String.valueOf(this.identifier));
		this.node = found;
		return found;
	}

	/**
	 * Hands the generator the nodes its {@code SessionFactory} offers, shared with the
	 * factory's other generators so that each node's supplier is asked once.
	 * @param nodes the factory's nodes
	 */
	void bind(NodeSource nodes) {
		this.source = nodes;
	}

	/**
	 * Returns the name of the node the IDs come from, {@value NodeSource#DEFAULT} for the
	 * default node.
	 * @return the node's name
	 */
	String nodeName() {
		return this.nodeName;
	}

	/**
	 * Returns the identifier, described for messages.
	 * @return the description, or {@code null} before initialization
	 */
	@Nullable String identifier() {
		return this.identifier;
	}

	private static String describe(@Nullable Member member, GeneratorCreationContext context) {
		String entity = (context.getPersistentClass() != null) ? context.getPersistentClass().getEntityName()
				: "(unknown)";
		if (member == null) {
			return "The identifier of entity " + entity;
		}
		String kind = (member instanceof Method) ? "getter" : "field";
		return "The identifier of entity " + entity + " (" + kind + " '" + member.getName() + "' declared in "
				+ member.getDeclaringClass().getName() + ")";
	}

	/**
	 * Returns the next ID from the identifier's node, as the identifier's type. The first
	 * call looks the node up in the session factory's settings.
	 * @param session the session, whose factory's settings hold the node
	 * @param owner the entity being inserted (not used)
	 * @param currentValue the identifier's current value (ignored: a new entity always
	 * gets a new ID)
	 * @param eventType always {@link EventType#INSERT}
	 * @return the ID as a {@link Long}, decimal {@link String} or {@link dev.crid.CridId}
	 * @throws IllegalStateException if Hibernate never initialized this generator, or the
	 * identifier's type cannot hold a crid ID
	 * @throws HibernateException if the settings hold no {@link CridNode} under
	 * {@link #NODE_SETTING} (or, for a named node, under its name in
	 * {@link #NODES_SETTING})
	 * @throws dev.crid.CridException if the node cannot hand out an ID (see
	 * {@link CridNode#nextId()})
	 */
	@Override
	public Object generate(SharedSessionContractImplementor session, @Nullable Object owner,
			@Nullable Object currentValue, EventType eventType) {
		IdType idType = this.type;
		if (idType == null) {
			MappingException problem = this.failure;
			throw (problem != null) ? new IllegalStateException(problem.getMessage(), problem)
					: new IllegalStateException("CridIdentifierGenerator is not initialized");
		}
		return idType.next(node(session));
	}

	/**
	 * Returns {@link EventTypeSets#INSERT_ONLY}: an identifier is generated once, for the
	 * INSERT.
	 * @return the insert event only
	 */
	@Override
	public EnumSet<EventType> getEventTypes() {
		return EventTypeSets.INSERT_ONLY;
	}

}

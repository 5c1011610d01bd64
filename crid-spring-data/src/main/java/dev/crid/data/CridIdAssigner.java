package dev.crid.data;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;
import org.springframework.data.mapping.PersistentPropertyAccessor;
import org.springframework.data.mapping.model.EntityInstantiators;
import org.springframework.data.mapping.model.InstantiationAwarePropertyAccessor;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.mapping.RelationalPersistentEntity;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;

import dev.crid.CridNode;
import dev.crid.InvalidConfigException;
import dev.crid.InvalidConfigException.Violation;

/**
 * Finds the {@link Crid} {@code @Id} of each aggregate class in a mapping context, and
 * the node it names, once per class, and sets it on aggregates that have none yet. Both
 * callbacks share it; it never touches a node, so deciding whether an aggregate needs an
 * ID never waits.
 */
final class CridIdAssigner {

	/**
	 * Builds a copy of an immutable aggregate (a record, say) with the ID set, through
	 * its constructor.
	 */
	private static final EntityInstantiators INSTANTIATORS = new EntityInstantiators();

	/** The name of the default node, which {@code @Crid} without a name also means. */
	static final String DEFAULT = "default";

	private static final Target NONE = new Target(null, null, null, null);

	/** The nodes by name, in the order given. */
	private final Map<String, CridNode> nodes;

	private final RelationalMappingContext mappingContext;

	private final Map<Class<?>, Target> targets = new ConcurrentHashMap<>();

	CridIdAssigner(CridNode node, RelationalMappingContext mappingContext) {
		this(Map.of(DEFAULT, requireNode(node)), mappingContext);
	}

	CridIdAssigner(Map<String, CridNode> nodes, RelationalMappingContext mappingContext) {
		if (nodes == null) {
			throw new IllegalArgumentException(
					"nodes is null but must map each node's name to the CridNode that " + "hands out its IDs");
		}
		if (mappingContext == null) {
			throw new IllegalArgumentException("mappingContext is null but must be the aggregates' mapping context");
		}
		Map<String, CridNode> copy = new LinkedHashMap<>();
		nodes.forEach((name, node) -> {
			if (name == null || node == null) {
				throw new IllegalArgumentException("nodes maps " + ((name == null) ? "null" : "\"" + name + "\"")
						+ " to " + node + " but must map each name to a CridNode");
			}
			copy.put(name, node);
		});
		this.nodes = copy;
		this.mappingContext = mappingContext;
	}

	private static CridNode requireNode(CridNode node) {
		if (node == null) {
			throw new IllegalArgumentException("node is null but must be the CridNode that hands out the IDs");
		}
		return node;
	}

	/**
	 * Returns how to give aggregates of the class an ID: {@link Target#needsId} is
	 * {@code false} for every aggregate of a class without a {@code @Crid} {@code @Id}.
	 * @throws InvalidConfigException when the class uses {@code @Crid} wrongly
	 */
	Target target(Class<?> type) {
		Target target = this.targets.get(type);
		if (target == null) {
			target = resolve(type);
			this.targets.put(type, target);
		}
		return target;
	}

	private Target resolve(Class<?> type) {
		RelationalPersistentEntity<?> entity = this.mappingContext.getPersistentEntity(type);
		if (entity == null) {
			return NONE;
		}
		List<Violation> problems = new ArrayList<>();
		Target target = inspect(entity, problems);
		if (!problems.isEmpty()) {
			throw new InvalidConfigException(problems);
		}
		return target;
	}

	/**
	 * Checks every aggregate the mapping context knows, and reports every misuse of
	 * {@code @Crid} among them at once.
	 * @throws InvalidConfigException naming every aggregate and field at fault
	 */
	void verify() {
		List<Violation> problems = new ArrayList<>();
		for (RelationalPersistentEntity<?> entity : this.mappingContext.getPersistentEntities()) {
			Target target = inspect(entity, problems);
			this.targets.putIfAbsent(entity.getType(), target);
		}
		if (!problems.isEmpty()) {
			throw new InvalidConfigException(problems);
		}
	}

	private Target inspect(RelationalPersistentEntity<?> entity, List<Violation> problems) {
		Target target = NONE;
		int before = problems.size();
		for (RelationalPersistentProperty property : entity) {
			Crid crid = property.findAnnotation(Crid.class);
			if (crid == null) {
				continue;
			}
			String field = entity.getType().getName() + "." + property.getName();
			IdType type = IdType.of(property.getType());
			if (!property.isIdProperty()) {
				problems.add(new Violation(field, "@dev.crid.data.Crid",
						"must annotate the aggregate's @Id only; put " + "@Crid on the @Id"));
			}
			else if (type == null) {
				problems.add(new Violation(field, property.getType().getName(),
						"must be a " + IdType.SUPPORTED + " to take a crid ID from @dev.crid.data.Crid"));
			}
			String name = crid.value().isEmpty() ? DEFAULT : crid.value();
			CridNode node = this.nodes.get(name);
			if (node == null) {
				problems.add(unknownNode(field, crid.value()));
			}
			if (problems.size() == before) {
				target = new Target(entity, property, type, node);
			}
		}
		return (problems.size() == before) ? target : NONE;
	}

	private Violation unknownNode(String field, String name) {
		String known = this.nodes.isEmpty() ? "(none given)" : String.join(", ", new TreeSet<>(this.nodes.keySet()));
		if (name.isEmpty()) {
			return new Violation(field, "@dev.crid.data.Crid", "must name a node there is, and @Crid without a name "
					+ "means node \"" + DEFAULT + "\", which is not among the nodes known: " + known);
		}
		return new Violation(field, "@dev.crid.data.Crid(\"" + name + "\")",
				"must name a node there is; the nodes known are: " + known);
	}

	/**
	 * The {@code @Crid} {@code @Id} of one aggregate class, and the node its IDs come
	 * from.
	 *
	 * @param entity the aggregate's persistent entity, or {@code null} when it has no
	 * {@code @Crid}
	 * @param property its {@code @Id} property
	 * @param type the property's type
	 * @param node the node {@code @Crid} names
	 */
	record Target(@Nullable RelationalPersistentEntity<?> entity, @Nullable RelationalPersistentProperty property,
			@Nullable IdType type, @Nullable CridNode node) {

		/**
		 * The node the aggregate's IDs come from; only for a target that {@link #needsId}
		 * some aggregate.
		 */
		CridNode issuer() {
			return Objects.requireNonNull(this.node);
		}

		/** Whether the aggregate has a {@code @Crid} {@code @Id} that is not set yet. */
		boolean needsId(Object aggregate) {
			RelationalPersistentEntity<?> known = this.entity;
			RelationalPersistentProperty id = this.property;
			IdType idType = this.type;
			return known != null && id != null && idType != null && this.node != null
					&& idType.isUnset(known.getPropertyAccessor(aggregate).getProperty(id));
		}

		/**
		 * Returns the aggregate with its {@code @Id} set to the ID: the same object, or a
		 * copy if immutable.
		 */
		@SuppressWarnings("unchecked") // the entity is that of the aggregate's own type T
		<T> T assign(T aggregate, long id) {
			RelationalPersistentEntity<T> typed = (RelationalPersistentEntity<T>) Objects.requireNonNull(this.entity);
			PersistentPropertyAccessor<T> accessor = new InstantiationAwarePropertyAccessor<>(aggregate,
					typed::getPropertyAccessor, INSTANTIATORS);
			accessor.setProperty(Objects.requireNonNull(this.property), Objects.requireNonNull(this.type).of(id));
			return accessor.getBean();
		}

	}

}

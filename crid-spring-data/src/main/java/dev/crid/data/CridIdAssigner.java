package dev.crid.data;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * Finds the {@link Crid} {@code @Id} of each aggregate class in a mapping context, once per class, and
 * sets it on aggregates that have none yet. Both callbacks share it; it never touches a node, so deciding
 * whether an aggregate needs an ID never waits.
 */
final class CridIdAssigner {

	/** Builds a copy of an immutable aggregate (a record, say) with the ID set, through its constructor. */
	private static final EntityInstantiators INSTANTIATORS = new EntityInstantiators();

	private static final Target NONE = new Target(null, null, null);

	private final CridNode node;

	private final RelationalMappingContext mappingContext;

	private final Map<Class<?>, Target> targets = new ConcurrentHashMap<>();

	CridIdAssigner(CridNode node, RelationalMappingContext mappingContext) {
		if (node == null) {
			throw new IllegalArgumentException("node is null but must be the CridNode that hands out the IDs");
		}
		if (mappingContext == null) {
			throw new IllegalArgumentException("mappingContext is null but must be the aggregates' mapping context");
		}
		this.node = node;
		this.mappingContext = mappingContext;
	}

	/** The node that hands out the IDs. */
	CridNode node() {
		return this.node;
	}

	/**
	 * Returns how to give aggregates of the class an ID: {@link Target#needsId} is {@code false} for every
	 * aggregate of a class without a {@code @Crid} {@code @Id}.
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
	 * Checks every aggregate the mapping context knows, and reports every misuse of {@code @Crid} among
	 * them at once.
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

	private static Target inspect(RelationalPersistentEntity<?> entity, List<Violation> problems) {
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
				problems.add(new Violation(field, "@dev.crid.data.Crid", "must annotate the aggregate's @Id only; put "
						+ "@Crid on the @Id"));
			}
			else if (type == null) {
				problems.add(new Violation(field, property.getType().getName(), "must be a " + IdType.SUPPORTED
						+ " to take a crid ID from @dev.crid.data.Crid"));
			}
			if (!crid.value().isEmpty()) {
				problems.add(new Violation(field, "@dev.crid.data.Crid(\"" + crid.value() + "\")", "must name no node: "
						+ "only the default node exists; write @Crid without a name"));
			}
			if (problems.size() == before) {
				target = new Target(entity, property, type);
			}
		}
		return (problems.size() == before) ? target : NONE;
	}

	/**
	 * The {@code @Crid} {@code @Id} of one aggregate class.
	 *
	 * @param entity the aggregate's persistent entity, or {@code null} when it has no {@code @Crid}
	 * @param property its {@code @Id} property
	 * @param type the property's type
	 */
	record Target(@Nullable RelationalPersistentEntity<?> entity, @Nullable RelationalPersistentProperty property,
			@Nullable IdType type) {

		/** Whether the aggregate has a {@code @Crid} {@code @Id} that is not set yet. */
		boolean needsId(Object aggregate) {
			RelationalPersistentEntity<?> known = this.entity;
			RelationalPersistentProperty id = this.property;
			IdType idType = this.type;
			return known != null && id != null && idType != null
					&& idType.isUnset(known.getPropertyAccessor(aggregate).getProperty(id));
		}

		/** Returns the aggregate with its {@code @Id} set to the ID: the same object, or a copy if immutable. */
		@SuppressWarnings("unchecked")
		<T> T assign(T aggregate, long id) {
			RelationalPersistentEntity<T> typed = (RelationalPersistentEntity<T>) Objects.requireNonNull(this.entity);
			PersistentPropertyAccessor<T> accessor = new InstantiationAwarePropertyAccessor<>(aggregate,
					typed::getPropertyAccessor, INSTANTIATORS);
			accessor.setProperty(Objects.requireNonNull(this.property), Objects.requireNonNull(this.type).of(id));
			return accessor.getBean();
		}

	}

}

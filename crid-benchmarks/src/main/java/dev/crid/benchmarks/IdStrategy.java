package dev.crid.benchmarks;

import java.util.Locale;
import java.util.function.Supplier;

import dev.crid.benchmarks.jpa.AssignedRow;
import dev.crid.benchmarks.jpa.CridRow;
import dev.crid.benchmarks.jpa.IdentityRow;
import dev.crid.benchmarks.jpa.Row;
import dev.crid.benchmarks.jpa.SequenceRow;
import dev.crid.benchmarks.jpa.UuidRow;
import jakarta.persistence.Table;

/**
 * The identifier strategies {@link JpaInsertBenchmark} compares, each with its entity.
 */
enum IdStrategy {

	/** {@code @Crid}. */
	CRID(CridRow.class, CridRow::new),

	/**
	 * {@code SEQUENCE} with the pooled optimizer, Hibernate's {@code allocationSize} 50.
	 */
	SEQUENCE(SequenceRow.class, SequenceRow::new),

	/** {@code IDENTITY}. */
	IDENTITY(IdentityRow.class, IdentityRow::new),

	/** {@code @UuidGenerator(style = TIME)}. */
	UUID(UuidRow.class, UuidRow::new),

	/**
	 * Assigned by the application from an {@code AtomicLong}: no identifier round trip at
	 * all, the floor.
	 */
	ASSIGNED(AssignedRow.class, AssignedRow::withNextId);

	private final Class<? extends Row> entity;

	@SuppressWarnings("ImmutableEnumChecker") // constructor references, which hold no
												// state
	private final Supplier<? extends Row> factory;

	IdStrategy(Class<? extends Row> entity, Supplier<? extends Row> factory) {
		this.entity = entity;
		this.factory = factory;
	}

	static IdStrategy of(String name) {
		return valueOf(name.toUpperCase(Locale.ROOT));
	}

	Class<? extends Row> entity() {
		return this.entity;
	}

	/** The entity's table as it is named in the database. */
	String tableName() {
		return BenchmarkTables.named(this.entity.getAnnotation(Table.class).name());
	}

	Row newRow() {
		return this.factory.get();
	}

}

package dev.crid.data;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the {@code @Id} of a Spring Data JDBC or Spring Data R2DBC aggregate whose value
 * comes from a {@link dev.crid.CridNode}: {@link CridJdbcCallback} and
 * {@link CridR2dbcCallback} assign one before the aggregate is first written, when the
 * field is {@code null} (or {@code 0} for a {@code long}), and leave a value that is set
 * alone.
 *
 * <pre class="code">
 * &#064;Table("shipment")
 * record Shipment(&#064;Id &#064;Crid Long id, String destination) {
 * }</pre>
 *
 * <p>
 * The field may be a {@code long} or {@link Long}, a {@link String} (the ID in decimal)
 * or a {@link dev.crid.CridId} (stored as a {@code BIGINT} through
 * {@link CridIdConverters}). Any other type, {@code @Crid} on a property that is not the
 * aggregate's {@code @Id}, or a node name the callback was not given fails at start-up,
 * naming every aggregate and field at fault (and the nodes there are).
 *
 * <p>
 * Unlike {@code dev.crid.hibernate.Crid}, this annotation needs no Hibernate.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.ANNOTATION_TYPE })
public @interface Crid {

	/**
	 * The name of the node that hands out the IDs: a key of the map given to
	 * {@link CridJdbcCallback#CridJdbcCallback(java.util.Map, org.springframework.data.relational.core.mapping.RelationalMappingContext)}
	 * or its R2DBC twin (with Spring Boot, a name under {@code crid.nodes}). The empty
	 * string (the default) and {@code "default"} both mean the default node. A name the
	 * callback was not given is refused at start-up rather than quietly served by another
	 * node. Names are matched exactly, case included.
	 * @return the node's name, empty for the default node
	 */
	String value() default "";

}

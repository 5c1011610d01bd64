package dev.crid.hibernate;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.hibernate.annotations.IdGeneratorType;

/**
 * Gives an entity's identifier a crid ID, assigned by {@link CridIdentifierGenerator}
 * before the INSERT so that Hibernate keeps batching the inserts.
 *
 * <p>
 * Either put it on the identifier itself:
 *
 * <pre class="code">
 * &#064;Entity
 * class Order {
 *
 *     &#064;Id &#064;Crid
 *     Long id;
 * }</pre>
 *
 * <p>
 * or once on the package, in its {@code package-info.java}, and name the generator
 * {@code "crid"} on each identifier:
 *
 * <pre class="code">
 * &#064;Crid
 * package com.example.orders;
 *
 * &#064;Entity
 * class Order {
 *
 *     &#064;Id &#064;GeneratedValue(generator = "crid")
 *     Long id;
 * }</pre>
 *
 * <p>
 * With the second style Hibernate looks for {@code @Crid} on the identifier, then on the
 * class that declares it, then on that class's package: for an identifier declared in a
 * {@code @MappedSuperclass} that is the superclass's package, not the entity's. When none
 * is found, Hibernate would quietly pick another generator (a random UUID for a
 * {@code String} identifier); crid-hibernate fails the {@code SessionFactory} in that
 * case instead (see {@link CridGeneratorIntegrator}). Hibernate also reads a
 * {@code @Crid} on the class or package only for {@code @GeneratedValue}'s default
 * strategy {@code AUTO}: {@code @GeneratedValue(strategy = IDENTITY)} (or
 * {@code SEQUENCE}, {@code TABLE}, {@code UUID}) there would quietly take the identifier
 * away from crid, so that fails too, naming the entity.
 *
 * <p>
 * With {@code @Crid} on the identifier, any {@code @GeneratedValue} beside it is ignored
 * by Hibernate; a leftover {@code @GeneratedValue(strategy = IDENTITY)} or
 * {@code SEQUENCE} is logged as a warning at start-up, naming the entity. Remove it.
 *
 * <p>
 * The identifier's type must be {@code long}, {@link Long}, {@link String} (the ID in
 * decimal) or {@link dev.crid.CridId} (stored as {@code BIGINT}).
 *
 * <p>
 * The IDs come from the default node unless {@link #value()} names another one,
 * {@code @Crid("billing")}: then from the node of that name in the Hibernate setting
 * {@link CridIdentifierGenerator#NODES_SETTING}, which the Spring Boot starter fills from
 * {@code crid.nodes.<name>.*}. A name that no node has fails the {@code SessionFactory},
 * naming the entity and the nodes there are.
 *
 * @see CridIdentifierGenerator
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.TYPE, ElementType.PACKAGE })
@IdGeneratorType(CridIdentifierGenerator.class)
public @interface Crid {

	/**
	 * The name of the node that hands out the IDs. The empty string (the default) and
	 * {@code "default"} both mean the default node, the one under
	 * {@link CridIdentifierGenerator#NODE_SETTING}; any other name means the node under
	 * that key of the map in {@link CridIdentifierGenerator#NODES_SETTING}. Names are
	 * matched exactly, case included.
	 * @return the node's name, empty for the default node
	 */
	String value() default "";

}

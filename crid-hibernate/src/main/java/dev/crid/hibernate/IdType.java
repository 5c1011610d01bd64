package dev.crid.hibernate;

import org.jspecify.annotations.Nullable;

import dev.crid.CridId;
import dev.crid.CridNode;

/**
 * The Java types a crid identifier may have, each with the way to turn the node's next ID
 * into it.
 */
enum IdType {

	/** {@code long} or {@link Long}. */
	LONG {
		@Override
		Object next(CridNode node) {
			return node.nextId();
		}
	},

	/** {@link String}: the ID in decimal. */
	STRING {
		@Override
		Object next(CridNode node) {
			return Long.toString(node.nextId());
		}
	},

	/** {@link CridId}. */
	CRID_ID {
		@Override
		Object next(CridNode node) {
			return node.next();
		}
	};

	/** What the failure message lists as supported. */
	static final String SUPPORTED = "long, java.lang.Long, java.lang.String (decimal) or dev.crid.CridId";

	/**
	 * Returns the next ID from the node as a value of this type.
	 * @param node the node
	 * @return the ID
	 */
	abstract Object next(CridNode node);

	/**
	 * Returns the type for the given Java class.
	 * @param type the identifier's Java class
	 * @return the type, or {@code null} if crid IDs cannot be held in that class
	 */
	static @Nullable IdType of(Class<?> type) {
		if (type == long.class || type == Long.class) {
			return LONG;
		}
		if (type == String.class) {
			return STRING;
		}
		if (type == CridId.class) {
			return CRID_ID;
		}
		return null;
	}

}

package dev.crid.data;

import dev.crid.CridId;

import org.jspecify.annotations.Nullable;

/**
 * The Java types a {@link Crid} field may have, each with the way to turn an ID into it
 * and to tell an unset field.
 */
enum IdType {

	/** {@code long}: unset while {@code 0}. */
	PRIMITIVE_LONG {
		@Override
		Object of(long id) {
			return id;
		}
	},

	/** {@link Long}. */
	LONG {
		@Override
		Object of(long id) {
			return id;
		}
	},

	/** {@link String}: the ID in decimal. */
	STRING {
		@Override
		Object of(long id) {
			return Long.toString(id);
		}
	},

	/** {@link CridId}. */
	CRID_ID {
		@Override
		Object of(long id) {
			return CridId.of(id);
		}
	};

	/** What a failure message lists as supported. */
	static final String SUPPORTED = "long, java.lang.Long, java.lang.String (decimal) or dev.crid.CridId";

	/** Returns the ID as a value of this type. */
	abstract Object of(long id);

	/** Whether a field of this type holding {@code value} has no ID yet. */
	boolean isUnset(@Nullable Object value) {
		return value == null || (this == PRIMITIVE_LONG && ((Long) value) == 0L);
	}

	/**
	 * Returns the type for the given Java class, or {@code null} if crid IDs cannot be
	 * held in it.
	 */
	static @Nullable IdType of(Class<?> type) {
		if (type == long.class) {
			return PRIMITIVE_LONG;
		}
		if (type == Long.class) {
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

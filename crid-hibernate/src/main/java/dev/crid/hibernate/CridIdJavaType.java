package dev.crid.hibernate;

import java.math.BigDecimal;
import java.math.BigInteger;

import dev.crid.CridId;
import org.hibernate.dialect.Dialect;
import org.hibernate.type.SqlTypes;
import org.hibernate.type.descriptor.WrapperOptions;
import org.hibernate.type.descriptor.java.AbstractClassJavaType;
import org.hibernate.type.descriptor.java.CoercionException;
import org.hibernate.type.descriptor.jdbc.JdbcType;
import org.hibernate.type.descriptor.jdbc.JdbcTypeIndicators;
import org.jspecify.annotations.Nullable;

/**
 * Tells Hibernate how to store a {@link CridId}: as its {@code long} value in a
 * {@code BIGINT} column. Without it, Hibernate would treat the {@code Serializable} class
 * as an opaque binary value.
 */
final class CridIdJavaType extends AbstractClassJavaType<CridId> {

	private static final long serialVersionUID = 1L;

	static final CridIdJavaType INSTANCE = new CridIdJavaType();

	private CridIdJavaType() {
		super(CridId.class);
	}

	@Override
	public JdbcType getRecommendedJdbcType(JdbcTypeIndicators indicators) {
		return indicators.getJdbcType(SqlTypes.BIGINT);
	}

	@Override
	public int getDefaultSqlPrecision(Dialect dialect, JdbcType jdbcType) {
		return 19;
	}

	@Override
	public boolean useObjectEqualsHashCode() {
		return true;
	}

	@Override
	public boolean isInstance(Object value) {
		return value instanceof CridId;
	}

	@Override
	public CridId cast(Object value) {
		return (CridId) value;
	}

	@Override
	public String toString(CridId value) {
		return value.toString();
	}

	@Override
	public CridId fromString(CharSequence string) {
		return CridId.parse(string.toString());
	}

	@Override
	public <X> @Nullable X unwrap(@Nullable CridId value, Class<X> type, WrapperOptions options) {
		if (value == null) {
			return null;
		}
		if (type.isAssignableFrom(CridId.class)) {
			return type.cast(value);
		}
		if (type == Long.class || type == long.class) {
			@SuppressWarnings("unchecked") // X is Long, or long boxed
			X result = (X) Long.valueOf(value.value());
			return result;
		}
		if (type == BigDecimal.class) {
			return type.cast(BigDecimal.valueOf(value.value()));
		}
		if (type == BigInteger.class) {
			return type.cast(BigInteger.valueOf(value.value()));
		}
		if (type == String.class) {
			return type.cast(value.toString());
		}
		throw unknownUnwrap(type);
	}

	@Override
	public <X> @Nullable CridId wrap(@Nullable X value, WrapperOptions options) {
		if (value == null) {
			return null;
		}
		if (value instanceof CridId cridId) {
			return cridId;
		}
		if (value instanceof Long || value instanceof Integer || value instanceof Short) {
			return CridId.of(((Number) value).longValue());
		}
		if (value instanceof BigDecimal || value instanceof BigInteger) {
			return CridId.of(exactLong((Number) value));
		}
		if (value instanceof CharSequence text) {
			return fromString(text);
		}
		throw unknownWrap(value.getClass());
	}

	@Override
	public Object coerce(Object value) {
		if (value instanceof Long || value instanceof Integer || value instanceof Short) {
			return CridId.of(((Number) value).longValue());
		}
		return value;
	}

	private static long exactLong(Number number) {
		try {
			return (number instanceof BigDecimal decimal) ? decimal.longValueExact()
					: ((BigInteger) number).longValueExact();
		}
		catch (ArithmeticException ex) {
			throw new CoercionException("Cannot read " + number + " as a crid ID: not a whole number in the long range",
					ex);
		}
	}

}

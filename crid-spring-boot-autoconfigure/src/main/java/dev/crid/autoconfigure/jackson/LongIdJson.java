package dev.crid.autoconfigure.jackson;

import org.jspecify.annotations.Nullable;

import dev.crid.CridId;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.deser.std.StdScalarDeserializer;
import tools.jackson.databind.ser.std.StdScalarSerializer;
import tools.jackson.databind.util.AccessPattern;

/**
 * The JSON of a crid ID held in a {@code long}: written as a string of its decimal value, which every
 * JavaScript client reads exactly, and read from such a string or from a JSON number, non-negative either
 * way. Anything else is rejected with a message that quotes the input.
 */
final class LongIdJson {

	/** Writes a {@code long} or {@link Long} as a JSON string. */
	static final StdScalarSerializer<Long> SERIALIZER = new Serializer();

	/** Reads a {@link Long}; JSON {@code null} is {@code null}. */
	static final StdScalarDeserializer<Long> DESERIALIZER = new Deserializer(Long.class);

	/** Reads a {@code long}; JSON {@code null} is rejected. */
	static final StdScalarDeserializer<Long> PRIMITIVE_DESERIALIZER = new Deserializer(long.class);

	private LongIdJson() {
	}

	private static final class Serializer extends StdScalarSerializer<Long> {

		Serializer() {
			super(Long.class);
		}

		@Override
		public void serialize(Long value, JsonGenerator generator, SerializationContext context) {
			generator.writeString(value.toString());
		}

	}

	private static final class Deserializer extends StdScalarDeserializer<Long> {

		Deserializer(Class<?> type) {
			super(type);
		}

		@Override
		public Long deserialize(JsonParser parser, DeserializationContext context) {
			if (parser.hasToken(JsonToken.VALUE_STRING)) {
				try {
					return CridId.parse(parser.getString()).value();
				}
				catch (IllegalArgumentException ex) {
					return context.reportInputMismatch(this, "%s", ex.getMessage());
				}
			}
			if (parser.hasToken(JsonToken.VALUE_NUMBER_INT)
					&& parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER && parser.getLongValue() >= 0) {
				return parser.getLongValue();
			}
			return context.reportInputMismatch(this, "Invalid crid ID %s: expected a decimal number from 0 to %d, as a "
					+ "JSON string (\"4294967296\") or number", parser.getString(), Long.MAX_VALUE);
		}

		@Override
		public AccessPattern getNullAccessPattern() {
			return (handledType() == long.class) ? AccessPattern.DYNAMIC : AccessPattern.CONSTANT;
		}

		@Override
		public @Nullable Object getNullValue(DeserializationContext context) {
			if (handledType() == long.class) {
				return context.reportInputMismatch(this, "Invalid crid ID null: a long property cannot be null");
			}
			return null;
		}

	}

}

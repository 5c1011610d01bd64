package dev.crid.jackson;

import org.jspecify.annotations.Nullable;

import dev.crid.CridId;
import dev.crid.format.IdFormat;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.deser.std.StdScalarDeserializer;
import tools.jackson.databind.ser.std.StdScalarSerializer;
import tools.jackson.databind.util.AccessPattern;

/**
 * The JSON of a crid ID held in a {@code long}: written as a string in the configured
 * form (decimal or base32), which every JavaScript client reads exactly, and read from
 * such a string, in that form only, or from a JSON number, non-negative either way. A
 * JSON number is a number whatever the form: base32 is a form of text. Anything else is
 * rejected with a message that quotes the input.
 */
final class LongIdJson {

	private static final LongIdJson DECIMAL = new LongIdJson(IdFormat.DECIMAL);

	private static final LongIdJson BASE32 = new LongIdJson(IdFormat.BASE32);

	/** Writes a {@code long} or {@link Long} as a JSON string. */
	final StdScalarSerializer<Long> serializer;

	/** Reads a {@link Long}; JSON {@code null} is {@code null}. */
	final StdScalarDeserializer<Long> deserializer;

	/** Reads a {@code long}; JSON {@code null} is rejected. */
	final StdScalarDeserializer<Long> primitiveDeserializer;

	private LongIdJson(IdFormat format) {
		this.serializer = new Serializer(format);
		this.deserializer = new Deserializer(Long.class, format);
		this.primitiveDeserializer = new Deserializer(long.class, format);
	}

	/** Returns the JSON of a {@code long} ID in the given form. */
	static LongIdJson of(IdFormat format) {
		return (format == IdFormat.BASE32) ? BASE32 : DECIMAL;
	}

	private static final class Serializer extends StdScalarSerializer<Long> {

		private final IdFormat format;

		Serializer(IdFormat format) {
			super(Long.class);
			this.format = format;
		}

		@Override
		public void serialize(Long value, JsonGenerator generator, SerializationContext context) {
			// Decimal writes whatever the long holds, as it always has; base32 has no
			// form for a negative value.
			generator.writeString(
					(this.format == IdFormat.DECIMAL) ? value.toString() : this.format.print(CridId.of(value)));
		}

	}

	private static final class Deserializer extends StdScalarDeserializer<Long> {

		private final IdFormat format;

		private final String expected;

		Deserializer(Class<?> type, IdFormat format) {
			super(type);
			this.format = format;
			this.expected = (format == IdFormat.DECIMAL)
					? IdText.expected(format) + ", as a JSON string (\"" + IdText.example(format) + "\") or number"
					: IdText.expected(format) + " as a JSON string (\"" + IdText.example(format)
							+ "\"), or a JSON number from 0 to " + Long.MAX_VALUE;
		}

		@Override
		public Long deserialize(JsonParser parser, DeserializationContext context) {
			if (parser.hasToken(JsonToken.VALUE_STRING)) {
				try {
					return this.format.parse(parser.getString()).value();
				}
				catch (IllegalArgumentException ex) {
					return context.reportInputMismatch(this, "%s", ex.getMessage());
				}
			}
			if (parser.hasToken(JsonToken.VALUE_NUMBER_INT)
					&& parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER && parser.getLongValue() >= 0) {
				return parser.getLongValue();
			}
			return context.reportInputMismatch(this, "Invalid crid ID %s: expected %s", parser.getString(),
					this.expected);
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

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

/**
 * The JSON of a crid ID held in a {@link String}, which holds it in decimal as the
 * {@code @Crid} generators write it: a JSON string in the configured form (the decimal
 * text as it is, or its base32 form), read from such a string, in that form only, or from
 * a non-negative JSON number, into the decimal text. Anything else is rejected with a
 * message that quotes the input.
 */
final class StringIdJson {

	private static final StringIdJson DECIMAL = new StringIdJson(IdFormat.DECIMAL);

	private static final StringIdJson BASE32 = new StringIdJson(IdFormat.BASE32);

	/** Writes the ID as a JSON string in the form. */
	final StdScalarSerializer<String> serializer;

	/** Reads the ID into its decimal text; JSON {@code null} is {@code null}. */
	final StdScalarDeserializer<String> deserializer;

	private StringIdJson(IdFormat format) {
		this.serializer = new Serializer(format);
		this.deserializer = new Deserializer(format);
	}

	/** Returns the JSON of a {@code String} ID in the given form. */
	static StringIdJson of(IdFormat format) {
		return (format == IdFormat.BASE32) ? BASE32 : DECIMAL;
	}

	private static final class Serializer extends StdScalarSerializer<String> {

		private final IdFormat format;

		Serializer(IdFormat format) {
			super(String.class);
			this.format = format;
		}

		@Override
		public void serialize(String value, JsonGenerator generator, SerializationContext context) {
			// Decimal writes the text as it is; base32 needs the ID it holds, which is
			// refused with a message quoting it when it holds none.
			generator.writeString((this.format == IdFormat.DECIMAL) ? value : this.format.print(CridId.parse(value)));
		}

	}

	private static final class Deserializer extends StdScalarDeserializer<String> {

		private final IdFormat format;

		Deserializer(IdFormat format) {
			super(String.class);
			this.format = format;
		}

		@Override
		public String deserialize(JsonParser parser, DeserializationContext context) {
			if (parser.hasToken(JsonToken.VALUE_STRING)) {
				try {
					return Long.toString(this.format.parse(parser.getString()).value());
				}
				catch (IllegalArgumentException ex) {
					return context.reportInputMismatch(this, "%s", ex.getMessage());
				}
			}
			if (parser.hasToken(JsonToken.VALUE_NUMBER_INT)
					&& parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER && parser.getLongValue() >= 0) {
				return Long.toString(parser.getLongValue());
			}
			return context.reportInputMismatch(this,
					"Invalid crid ID %s: expected %s as a JSON string (\"%s\"), or a " + "JSON number from 0 to %d",
					parser.getString(), IdText.expected(this.format), IdText.example(this.format), Long.MAX_VALUE);
		}

		@Override
		public @Nullable Object getNullValue(DeserializationContext context) {
			return null;
		}

	}

}

package dev.crid.autoconfigure;

import dev.crid.CridId;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.Version;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdScalarSerializer;
import tools.jackson.databind.util.AccessPattern;

/**
 * A Jackson 3 module that writes a {@link CridId} as a JSON string of its decimal value and reads it back.
 * A JSON string keeps every 63-bit ID exact, which a JavaScript number cannot. Reading accepts only a JSON
 * string as {@link CridId#parse(String)} does (digits only, no sign, no blanks, at most
 * {@link Long#MAX_VALUE}); a JSON number, a malformed string or an explicit {@code null} is rejected with a
 * message that quotes the input. A property that is absent from the JSON stays {@code null}.
 */
public class CridJacksonModule extends SimpleModule {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates the module.
	 */
	public CridJacksonModule() {
		super("crid", Version.unknownVersion());
		addSerializer(CridId.class, new CridIdSerializer());
		addDeserializer(CridId.class, new CridIdDeserializer());
	}

	private static final class CridIdSerializer extends StdScalarSerializer<CridId> {

		CridIdSerializer() {
			super(CridId.class);
		}

		@Override
		public void serialize(CridId value, JsonGenerator generator, SerializationContext context) {
			generator.writeString(value.toString());
		}

	}

	private static final class CridIdDeserializer extends StdDeserializer<CridId> {

		CridIdDeserializer() {
			super(CridId.class);
		}

		@Override
		public CridId deserialize(JsonParser parser, DeserializationContext context) {
			if (!parser.hasToken(JsonToken.VALUE_STRING)) {
				return context.reportInputMismatch(this, "Invalid crid ID %s: expected a JSON string of a decimal "
						+ "number from 0 to %d, e.g. \"4294967296\"", parser.getString(), Long.MAX_VALUE);
			}
			String text = parser.getString();
			try {
				return CridId.parse(text);
			}
			catch (IllegalArgumentException ex) {
				return context.reportInputMismatch(this, "%s", ex.getMessage());
			}
		}

		@Override
		public AccessPattern getNullAccessPattern() {
			return AccessPattern.DYNAMIC;
		}

		@Override
		public Object getNullValue(DeserializationContext context) {
			return context.reportInputMismatch(this,
					"Invalid crid ID null: expected a JSON string of a decimal number from 0 to %d", Long.MAX_VALUE);
		}

		@Override
		public Object getAbsentValue(DeserializationContext context) {
			return null;
		}

	}

}

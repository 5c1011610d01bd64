package dev.crid.autoconfigure.jackson;

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

import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;

/**
 * A Jackson 3 module that writes a {@link CridId} as a JSON string of its decimal value and reads it back.
 * A JSON string keeps every 63-bit ID exact, which a JavaScript number cannot. Reading accepts only a JSON
 * string as {@link CridId#parse(String)} does (digits only, no sign, no blanks, at most
 * {@link Long#MAX_VALUE}); a JSON number, a malformed string or an explicit {@code null} is rejected with a
 * message that quotes the input. A property that is absent from the JSON stays {@code null}.
 *
 * <p>Unless switched off, it also gives {@code long} and {@link Long} properties annotated
 * {@code @dev.crid.hibernate.Crid} (the identifier of a JPA entity, or a property of any other bean) the
 * same JSON string, and reads them from such a string or from a JSON number. That part needs crid-hibernate
 * on the classpath and does nothing without it. An explicit {@code @JsonSerialize} or
 * {@code @JsonDeserialize} on the property wins.
 */
public class CridJacksonModule extends SimpleModule {

	private static final long serialVersionUID = 1L;

	/** Holds {@code @Crid}; the module looks for the annotation only when crid-hibernate is present. */
	static final String CRID_ANNOTATION_CLASS = "dev.crid.hibernate.Crid";

	private static final boolean CRID_ANNOTATION_PRESENT = ClassUtils.isPresent(CRID_ANNOTATION_CLASS,
			CridJacksonModule.class.getClassLoader());

	/** Whether {@code @Crid} properties are written as JSON strings ({@code crid.jackson.ids-as-strings}). */
	private final boolean cridPropertiesAsStrings;

	/**
	 * Creates the module, with {@code @Crid} properties written as strings.
	 */
	public CridJacksonModule() {
		this(true);
	}

	/**
	 * Creates the module.
	 * @param cridPropertiesAsStrings whether {@code long} and {@link Long} properties annotated
	 * {@code @Crid} are written as JSON strings (and read from strings or numbers); {@link CridId} values
	 * are written as strings either way
	 */
	public CridJacksonModule(boolean cridPropertiesAsStrings) {
		super("crid", Version.unknownVersion());
		this.cridPropertiesAsStrings = cridPropertiesAsStrings;
		addSerializer(CridId.class, new CridIdSerializer());
		addDeserializer(CridId.class, new CridIdDeserializer());
	}

	/**
	 * Registers the serializers and, unless switched off, the handling of {@code @Crid} properties.
	 * @param context where Jackson collects what modules add
	 */
	@Override
	public void setupModule(SetupContext context) {
		super.setupModule(context);
		if (this.cridPropertiesAsStrings && CRID_ANNOTATION_PRESENT) {
			context.appendAnnotationIntrospector(new CridAnnotationIntrospector());
		}
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
		public @Nullable Object getAbsentValue(DeserializationContext context) {
			return null;
		}

	}

}

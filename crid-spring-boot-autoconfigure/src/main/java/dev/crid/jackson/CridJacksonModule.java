package dev.crid.jackson;

import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;

import dev.crid.CridId;
import dev.crid.format.IdFormat;
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
 * A Jackson 3 module that writes a {@link CridId} as a JSON string, of its decimal value
 * or of its base32 form ({@link IdFormat}), and reads it back. A JSON string keeps every
 * 63-bit ID exact, which a JavaScript number cannot. Reading accepts only a JSON string
 * in the module's form, as {@link CridId#parse(String)} (digits only, no sign, no blanks,
 * at most {@link Long#MAX_VALUE}) or {@link CridId#parseBase32(CharSequence)} reads it,
 * never the other form; a JSON number, a malformed string or an explicit {@code null} is
 * rejected with a message that quotes the input. A property that is absent from the JSON
 * stays {@code null}.
 *
 * <p>
 * Unless switched off, it also gives {@code long}, {@link Long} and {@link String}
 * properties annotated {@code @dev.crid.hibernate.Crid} (the identifier of a JPA entity,
 * or a property of any other bean) or {@code @dev.crid.data.Crid} (the identifier of a
 * Spring Data JDBC or R2DBC aggregate) the same JSON string, and reads them from such a
 * string or from a JSON number (a {@code String} property into its decimal text, as the
 * generators write it). Each annotation is looked for only when its module,
 * crid-hibernate or crid-spring-data, is on the classpath. An explicit
 * {@code @JsonSerialize} or {@code @JsonDeserialize} on the property wins.
 */
public class CridJacksonModule extends SimpleModule {

	private static final long serialVersionUID = 1L;

	/**
	 * Holds {@code @Crid} for JPA entities; the module looks for it only when
	 * crid-hibernate is present.
	 */
	static final String CRID_ANNOTATION_CLASS = "dev.crid.hibernate.Crid";

	/**
	 * Holds {@code @Crid} for Spring Data aggregates; the module looks for it only when
	 * crid-spring-data is present.
	 */
	static final String DATA_CRID_ANNOTATION_CLASS = "dev.crid.data.Crid";

	/** The {@code @Crid} annotations on the classpath. */
	private static final List<Class<? extends Annotation>> CRID_ANNOTATIONS = presentAnnotations(CRID_ANNOTATION_CLASS,
			DATA_CRID_ANNOTATION_CLASS);

	/**
	 * Whether {@code @Crid} properties are written as JSON strings
	 * ({@code crid.jackson.ids-as-strings}).
	 */
	private final boolean cridPropertiesAsStrings;

	/** The form of the strings ({@code crid.id-format}). */
	private final IdFormat format;

	/**
	 * Creates the module, with IDs as decimal strings and {@code @Crid} properties
	 * written as strings.
	 */
	public CridJacksonModule() {
		this(true);
	}

	/**
	 * Creates the module, with IDs as decimal strings.
	 * @param cridPropertiesAsStrings whether {@code long} and {@link Long} properties
	 * annotated {@code @Crid} are written as JSON strings (and read from strings or
	 * numbers); {@link CridId} values are written as strings either way
	 */
	public CridJacksonModule(boolean cridPropertiesAsStrings) {
		this(cridPropertiesAsStrings, IdFormat.DECIMAL);
	}

	/**
	 * Creates the module.
	 * @param cridPropertiesAsStrings whether {@code long} and {@link Long} properties
	 * annotated {@code @Crid} are written as JSON strings (and read from strings or
	 * numbers); {@link CridId} values are written as strings either way
	 * @param format the form of the strings, which is the only form they are read in
	 * @throws IllegalArgumentException for base32 with {@code @Crid} properties as
	 * numbers: base32 is a form of text, and the JSON numbers would leave a client with
	 * IDs in two forms, whose strings in a request Jackson would read as decimal
	 */
	public CridJacksonModule(boolean cridPropertiesAsStrings, IdFormat format) {
		super("crid", Version.unknownVersion());
		if (format == IdFormat.BASE32 && !cridPropertiesAsStrings) {
			throw new IllegalArgumentException("Base32 IDs are JSON strings, so @Crid properties must be written as "
					+ "strings too (cridPropertiesAsStrings = true)");
		}
		this.cridPropertiesAsStrings = cridPropertiesAsStrings;
		this.format = format;
		addSerializer(CridId.class, new CridIdSerializer(format));
		addDeserializer(CridId.class, new CridIdDeserializer(format));
	}

	/**
	 * Registers the serializers and, unless switched off, the handling of {@code @Crid}
	 * properties.
	 * @param context where Jackson collects what modules add
	 */
	@Override
	public void setupModule(SetupContext context) {
		super.setupModule(context);
		if (this.cridPropertiesAsStrings && !CRID_ANNOTATIONS.isEmpty()) {
			context.appendAnnotationIntrospector(new CridAnnotationIntrospector(this.format, CRID_ANNOTATIONS));
		}
	}

	@SuppressWarnings("unchecked") // each name is that of an annotation type
	private static List<Class<? extends Annotation>> presentAnnotations(String... names) {
		List<Class<? extends Annotation>> present = new ArrayList<>();
		ClassLoader classLoader = CridJacksonModule.class.getClassLoader();
		for (String name : names) {
			if (ClassUtils.isPresent(name, classLoader)) {
				present.add((Class<? extends Annotation>) ClassUtils.resolveClassName(name, classLoader));
			}
		}
		return List.copyOf(present);
	}

	private static final class CridIdSerializer extends StdScalarSerializer<CridId> {

		private final IdFormat format;

		CridIdSerializer(IdFormat format) {
			super(CridId.class);
			this.format = format;
		}

		@Override
		public void serialize(CridId value, JsonGenerator generator, SerializationContext context) {
			generator.writeString(this.format.print(value));
		}

	}

	private static final class CridIdDeserializer extends StdDeserializer<CridId> {

		private final IdFormat format;

		CridIdDeserializer(IdFormat format) {
			super(CridId.class);
			this.format = format;
		}

		@Override
		public CridId deserialize(JsonParser parser, DeserializationContext context) {
			if (!parser.hasToken(JsonToken.VALUE_STRING)) {
				return context.reportInputMismatch(this,
						"Invalid crid ID %s: expected a JSON string of %s, e.g. \"%s\"", parser.getString(),
						IdText.expected(this.format), IdText.example(this.format));
			}
			String text = parser.getString();
			try {
				return this.format.parse(text);
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
			return context.reportInputMismatch(this, "Invalid crid ID null: expected a JSON string of %s",
					IdText.expected(this.format));
		}

		@Override
		public @Nullable Object getAbsentValue(DeserializationContext context) {
			return null;
		}

	}

}

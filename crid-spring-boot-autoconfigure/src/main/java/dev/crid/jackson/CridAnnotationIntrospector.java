package dev.crid.jackson;

import org.jspecify.annotations.Nullable;

import dev.crid.format.IdFormat;
import dev.crid.hibernate.Crid;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.AnnotatedMethod;
import tools.jackson.databind.introspect.NopAnnotationIntrospector;

/**
 * Finds {@code long} and {@link Long} properties annotated {@link Crid} and gives them
 * the JSON of a crid ID, a string in the configured form ({@link LongIdJson}). Added
 * after Jackson's own introspector, so an explicit {@code @JsonSerialize} or
 * {@code @JsonDeserialize} on the property still wins. Touched only when crid-hibernate,
 * which holds {@link Crid}, is on the classpath.
 */
final class CridAnnotationIntrospector extends NopAnnotationIntrospector {

	private static final long serialVersionUID = 1L;

	private final IdFormat format;

	CridAnnotationIntrospector(IdFormat format) {
		this.format = format;
	}

	@Override
	public @Nullable Object findSerializer(MapperConfig<?> config, Annotated annotated) {
		return isCridLong(annotated, annotated.getRawType()) ? LongIdJson.of(this.format).serializer : null;
	}

	@Override
	public @Nullable Object findDeserializer(MapperConfig<?> config, Annotated annotated) {
		// A setter's raw type is its return type; the value it takes is its parameter.
		Class<?> type = (annotated instanceof AnnotatedMethod method && method.getParameterCount() == 1)
				? method.getRawParameterType(0) : annotated.getRawType();
		if (!isCridLong(annotated, type)) {
			return null;
		}
		LongIdJson json = LongIdJson.of(this.format);
		return (type == long.class) ? json.primitiveDeserializer : json.deserializer;
	}

	private static boolean isCridLong(Annotated annotated, Class<?> type) {
		return (type == Long.class || type == long.class) && annotated.hasAnnotation(Crid.class);
	}

}

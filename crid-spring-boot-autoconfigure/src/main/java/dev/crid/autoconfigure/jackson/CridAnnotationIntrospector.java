package dev.crid.autoconfigure.jackson;

import org.jspecify.annotations.Nullable;

import dev.crid.hibernate.Crid;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.AnnotatedMethod;
import tools.jackson.databind.introspect.NopAnnotationIntrospector;

/**
 * Finds {@code long} and {@link Long} properties annotated {@link Crid} and gives them the JSON of a crid
 * ID, a string ({@link LongIdJson}). Added after Jackson's own introspector, so an explicit
 * {@code @JsonSerialize} or {@code @JsonDeserialize} on the property still wins. Touched only when
 * crid-hibernate, which holds {@link Crid}, is on the classpath.
 */
final class CridAnnotationIntrospector extends NopAnnotationIntrospector {

	private static final long serialVersionUID = 1L;

	@Override
	public @Nullable Object findSerializer(MapperConfig<?> config, Annotated annotated) {
		return isCridLong(annotated, annotated.getRawType()) ? LongIdJson.SERIALIZER : null;
	}

	@Override
	public @Nullable Object findDeserializer(MapperConfig<?> config, Annotated annotated) {
		// A setter's raw type is its return type; the value it takes is its parameter.
		Class<?> type = (annotated instanceof AnnotatedMethod method && method.getParameterCount() == 1)
				? method.getRawParameterType(0) : annotated.getRawType();
		if (!isCridLong(annotated, type)) {
			return null;
		}
		return (type == long.class) ? LongIdJson.PRIMITIVE_DESERIALIZER : LongIdJson.DESERIALIZER;
	}

	private static boolean isCridLong(Annotated annotated, Class<?> type) {
		return (type == Long.class || type == long.class) && annotated.hasAnnotation(Crid.class);
	}

}

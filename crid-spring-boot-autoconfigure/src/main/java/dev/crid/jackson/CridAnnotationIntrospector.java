package dev.crid.jackson;

import java.lang.annotation.Annotation;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.crid.format.IdFormat;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.AnnotatedMethod;
import tools.jackson.databind.introspect.NopAnnotationIntrospector;

/**
 * Finds {@code long}, {@link Long} and {@link String} properties annotated with one of
 * crid's {@code @Crid} annotations ({@code dev.crid.hibernate.Crid} for JPA entities,
 * {@code dev.crid.data.Crid} for Spring Data aggregates) and gives them the JSON of a
 * crid ID, a string in the configured form ({@link LongIdJson}, {@link StringIdJson}).
 * Added after Jackson's own introspector, so an explicit {@code @JsonSerialize} or
 * {@code @JsonDeserialize} on the property still wins. Looks only for the annotations
 * whose module is on the classpath.
 */
final class CridAnnotationIntrospector extends NopAnnotationIntrospector {

	private static final long serialVersionUID = 1L;

	private final IdFormat format;

	private final List<Class<? extends Annotation>> annotations;

	/**
	 * Creates the introspector.
	 * @param format the form of the JSON strings
	 * @param annotations the {@code @Crid} annotations present
	 */
	CridAnnotationIntrospector(IdFormat format, List<Class<? extends Annotation>> annotations) {
		this.format = format;
		this.annotations = List.copyOf(annotations);
	}

	@Override
	public @Nullable Object findSerializer(MapperConfig<?> config, Annotated annotated) {
		Class<?> type = annotated.getRawType();
		if (!isCrid(annotated)) {
			return null;
		}
		if (type == Long.class || type == long.class) {
			return LongIdJson.of(this.format).serializer;
		}
		return (type == String.class) ? StringIdJson.of(this.format).serializer : null;
	}

	@Override
	public @Nullable Object findDeserializer(MapperConfig<?> config, Annotated annotated) {
		// A setter's raw type is its return type; the value it takes is its parameter.
		Class<?> type = (annotated instanceof AnnotatedMethod method && method.getParameterCount() == 1)
				? method.getRawParameterType(0) : annotated.getRawType();
		if (!isCrid(annotated)) {
			return null;
		}
		if (type == Long.class || type == long.class) {
			LongIdJson json = LongIdJson.of(this.format);
			return (type == long.class) ? json.primitiveDeserializer : json.deserializer;
		}
		return (type == String.class) ? StringIdJson.of(this.format).deserializer : null;
	}

	private boolean isCrid(Annotated annotated) {
		for (Class<? extends Annotation> annotation : this.annotations) {
			if (annotated.hasAnnotation(annotation)) {
				return true;
			}
		}
		return false;
	}

}

package dev.crid.autoconfigure;

import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

/**
 * Where the value of a property came from, as Spring Boot tracks it: the file and line of
 * a properties or YAML file, the name of an environment variable, and so on. A named
 * node's property that the node does not set takes the value of {@code crid.*}, and so
 * its origin.
 */
final class PropertyOrigins implements Function<String, @Nullable String> {

	private static final Pattern NAMED_NODE_PROPERTY = Pattern.compile("crid\\.nodes\\.[A-Za-z][A-Za-z0-9_]*\\.(.+)");

	private final Iterable<ConfigurationPropertySource> sources;

	PropertyOrigins(Environment environment) {
		this.sources = ConfigurationPropertySources.get(environment);
	}

	/**
	 * Describes where the property's value came from.
	 * @param property the property's name
	 * @return the origin, or {@code null} when the property is not set or its source does
	 * not tell
	 */
	@Override
	public @Nullable String apply(String property) {
		Origin origin = find(property);
		if (origin != null) {
			return origin.toString();
		}
		Matcher named = NAMED_NODE_PROPERTY.matcher(property);
		if (named.matches()) {
			String inherited = "crid." + named.group(1);
			Origin inheritedOrigin = find(inherited);
			if (inheritedOrigin != null) {
				return inheritedOrigin + " (" + inherited + ", which the node takes as it sets none)";
			}
		}
		return null;
	}

	private @Nullable Origin find(String property) {
		ConfigurationPropertyName name = ConfigurationPropertyName.adapt(property, '.');
		for (ConfigurationPropertySource source : this.sources) {
			ConfigurationProperty found = source.getConfigurationProperty(name);
			if (found != null) {
				return found.getOrigin();
			}
		}
		return null;
	}

}

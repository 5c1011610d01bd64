package dev.crid.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.crid.Registry;

import org.jspecify.annotations.Nullable;

/**
 * What the health indicator and the endpoint show of a registry, whatever its class: its
 * {@link Registry#kind() kind}, then its {@link Registry#details() details}. Never
 * blocks: neither asks the registry's store.
 */
public final class RegistryDescription {

	private RegistryDescription() {
	}

	/**
	 * Describes a registry.
	 * @param registry the registry, or {@code null} when it is not known
	 * @return {@code kind} ({@code unknown} for no registry), then the registry's
	 * details, in display order
	 */
	public static Map<String, Object> of(@Nullable Registry registry) {
		Map<String, Object> description = new LinkedHashMap<>();
		description.put("kind", (registry != null) ? registry.kind() : "unknown");
		if (registry != null) {
			description.putAll(registry.details());
		}
		return description;
	}

}

package dev.crid.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.crid.CridException;
import dev.crid.InvalidConfigException;
import dev.crid.InvalidConfigException.Violation;

/**
 * Thrown at start-up when the application's crid configuration cannot work: a
 * {@code crid.*} property out of range, {@code crid.registry.type=jdbc} without a usable
 * DataSource, or a registry table that is missing. It carries what went wrong and how to
 * fix it, which Spring Boot's failure analysis prints in place of a stack trace.
 */
public class CridConfigurationException extends CridException {

	private static final long serialVersionUID = 1L;

	/** What is wrong, naming the property and its value. */
	private final String description;

	/** How to fix it. */
	private final String action;

	/**
	 * Creates an exception.
	 * @param description what is wrong, naming the property and its value
	 * @param action how to fix it
	 * @param cause the underlying failure, or {@code null}
	 */
	public CridConfigurationException(String description, String action, @Nullable Throwable cause) {
		super(description, cause);
		this.description = description;
		this.action = action;
	}

	/**
	 * Creates the exception for the settings a crid builder refused, in terms of the
	 * properties they came from: for each violation the property, its value and the
	 * reason, and the fixes once each. A violation whose setting has no property is still
	 * listed, with its reason.
	 * @param refused what the builder threw
	 * @param properties the property behind each setting, by {@link Violation#setting()}
	 * @param note a sentence added after the violations, or {@code null}
	 * @return the exception
	 */
	public static CridConfigurationException invalidSettings(InvalidConfigException refused,
			Map<String, Property> properties, @Nullable String note) {
		StringBuilder description = new StringBuilder("The crid configuration is invalid:\n");
		List<String> fixes = new ArrayList<>();
		for (Violation violation : refused.violations()) {
			Property property = properties.get(violation.setting());
			description.append('\n');
			if (property != null) {
				description.append("    Property: ").append(property.name()).append('\n');
				description.append("    Value: ").append(property.value()).append('\n');
				if (!fixes.contains(property.fix())) {
					fixes.add(property.fix());
				}
			}
			description.append("    Reason: ").append(violation.message()).append('\n');
		}
		if (note != null) {
			description.append('\n').append(note).append('\n');
		}
		if (fixes.isEmpty()) {
			fixes.add("Correct the settings named above.");
		}
		return new CridConfigurationException(description.toString(),
				"Update your application's configuration:\n    - " + String.join("\n    - ", fixes), refused);
	}

	/**
	 * Returns what is wrong, naming the property and its value.
	 * @return the description
	 */
	public String description() {
		return this.description;
	}

	/**
	 * Returns how to fix it.
	 * @return the action
	 */
	public String action() {
		return this.action;
	}

	/**
	 * The property a builder setting came from.
	 *
	 * @param name the property's name, such as {@code crid.block-size}
	 * @param value its value, as the failure analysis shows it
	 * @param fix how to set it right, naming the default
	 */
	public record Property(String name, Object value, String fix) {
	}

}

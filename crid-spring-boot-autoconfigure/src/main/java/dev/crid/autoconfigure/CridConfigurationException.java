package dev.crid.autoconfigure;

import org.jspecify.annotations.Nullable;

import dev.crid.CridException;

/**
 * Thrown at start-up when the application's crid configuration cannot work: a {@code crid.*} property out
 * of range, {@code crid.registry.type=jdbc} without a usable DataSource, or a registry table that is
 * missing. It carries what went wrong and how to fix it, which Spring Boot's failure analysis prints in
 * place of a stack trace.
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

}

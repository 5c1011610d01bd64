package dev.crid.autoconfigure;

import java.util.List;

import dev.crid.CridException;
import dev.crid.InvalidConfigException;

import org.jspecify.annotations.Nullable;

/**
 * Thrown at start-up when the application's crid configuration cannot work: a property
 * out of range, {@code crid.registry.type=jdbc} without a usable DataSource, or a
 * registry table that is missing. It carries what went wrong and how to fix it, which
 * Spring Boot's failure analysis prints in place of a stack trace: for settings that
 * break a rule, each {@link Violation}, which the analysis reports with the property, its
 * value, where the value came from, the rule and the fix.
 */
public class CridConfigurationException extends CridException {

	private static final long serialVersionUID = 1L;

	/** The node whose settings break a rule. */
	private final String node;

	/** The rules broken, or none for a failure that is described in words. */
	private final List<Violation> violations;

	/** What the report adds after the violations, or {@code null}. */
	private final @Nullable String note;

	/** What is wrong. */
	private final String description;

	/** How to fix it. */
	private final String action;

	/**
	 * Creates an exception for a failure that breaks no rule of a single setting.
	 * @param description what is wrong, naming the property and its value
	 * @param action how to fix it
	 * @param cause the underlying failure, or {@code null}
	 */
	public CridConfigurationException(String description, String action, @Nullable Throwable cause) {
		super(description, cause);
		this.node = CridNodes.DEFAULT_NODE;
		this.violations = List.of();
		this.note = null;
		this.description = description;
		this.action = action;
	}

	/**
	 * Creates an exception for the rules that a node's settings break.
	 * @param node the node's name, {@value CridNodes#DEFAULT_NODE} for the default node
	 * and for settings of the application as a whole
	 * @param violations the rules broken, at least one
	 * @param note what the report adds after the violations (a sentence, or the
	 * statements that create a missing table), or {@code null}
	 * @param cause the underlying failure, or {@code null}
	 */
	public CridConfigurationException(String node, List<Violation> violations, @Nullable String note,
			@Nullable Throwable cause) {
		this(node, List.copyOf(violations), note, ViolationReport.describe(node, violations, note, (name) -> null),
				cause);
	}

	private CridConfigurationException(String node, List<Violation> violations, @Nullable String note,
			String description, @Nullable Throwable cause) {
		super(description, cause);
		this.node = node;
		this.violations = violations;
		this.note = note;
		this.description = description;
		this.action = ViolationReport.action(node, violations);
	}

	/**
	 * Creates the exception for the settings a builder of crid-core or crid-jdbc refused.
	 * @param node the node's name, {@value CridNodes#DEFAULT_NODE} for the default node
	 * @param builder the builder
	 * @param refused what it threw
	 * @return the exception
	 */
	public static CridConfigurationException refused(String node, Setting.Builder builder,
			InvalidConfigException refused) {
		return refused(node, builder, refused, null);
	}

	static CridConfigurationException refused(String node, Setting.Builder builder, InvalidConfigException refused,
			@Nullable String note) {
		return new CridConfigurationException(node,
				refused.violations().stream().map((violation) -> Violation.of(builder, violation)).toList(), note,
				refused);
	}

	/**
	 * Returns the node whose settings break a rule.
	 * @return the node's name, {@value CridNodes#DEFAULT_NODE} for the default node and
	 * for settings of the application as a whole
	 */
	public String node() {
		return this.node;
	}

	/**
	 * Returns the rules that the settings break.
	 * @return the violations, or none for a failure described in words only
	 */
	public List<Violation> violations() {
		return this.violations;
	}

	/**
	 * Returns what the report adds after the violations.
	 * @return the note, or {@code null}
	 */
	public @Nullable String note() {
		return this.note;
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

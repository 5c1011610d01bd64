package dev.crid;

import java.util.List;

import org.jspecify.annotations.Nullable;
import java.util.Objects;

/**
 * Thrown when a layout, a node or a registry is configured with values outside their
 * allowed ranges. It lists every violated rule at once: {@link #violations()} as values
 * (the setting, the value given, the rule), and the exception's message as sentences
 * joined, each naming the setting, the value and the range allowed.
 */
public class InvalidConfigException extends CridException {

	private static final long serialVersionUID = 1L;

	/** The violated rules, in the order they were checked. */
	private final List<Violation> violations;

	/**
	 * Creates an exception for the given violations.
	 * @param violations the violated rules, never empty
	 */
	public InvalidConfigException(List<Violation> violations) {
		super("Invalid crid configuration: " + String.join("; ", violations.stream().map(Violation::message).toList()));
		this.violations = List.copyOf(violations);
	}

	/**
	 * Returns the violated rules, in the order they were checked.
	 * @return the violations, never empty
	 */
	public List<Violation> violations() {
		return this.violations;
	}

	/**
	 * One violated rule: which setting, the value it was given, and what the rule asks of
	 * it.
	 *
	 * @param setting the setting's name as the builders spell it ({@code blockSize},
	 * {@code epoch}, {@code tableName}, …); {@value #BIT_SPLIT} for the rule that the
	 * layout's two bit counts add up to 63
	 * @param value the value given, or {@code null} when none was given
	 * @param rule what the rule asks, starting with a verb ("must be in [1, 4294967296]")
	 * @serial exclude
	 */
	// Javadoc takes "@serial exclude" on a class, to leave it out of the serialized form;
	// Error Prone does not know the tag there.
	@SuppressWarnings("InvalidBlockTag")
	public record Violation(String setting, @Nullable Object value, String rule) implements java.io.Serializable {

		/**
		 * The setting of the rule that {@code timestampBits} and {@code sequenceBits} add
		 * up to 63.
		 */
		public static final String BIT_SPLIT = "timestampBits + sequenceBits";

		/**
		 * Creates a violation.
		 * @param setting the setting's name as the builders spell it
		 * @param value the value given, or {@code null}
		 * @param rule what the rule asks, starting with a verb
		 */
		public Violation {
			Objects.requireNonNull(setting, "setting");
			Objects.requireNonNull(rule, "rule");
		}

		/**
		 * Returns the violation as a sentence,
		 * {@code "blockSize is 0 but must be in [1, 4294967296]"}; text values are
		 * quoted.
		 * @return the sentence
		 */
		public String message() {
			String shown = (this.value instanceof CharSequence) ? "\"" + this.value + "\"" : String.valueOf(this.value);
			return this.setting + " is " + shown + " but " + this.rule;
		}

		@Override
		public String toString() {
			return message();
		}

	}

}

package dev.crid.autoconfigure;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One rule that a crid setting breaks: which setting, the value it has, and what the rule
 * asks of it.
 *
 * @param setting the setting
 * @param value the value it has, or {@code null} when it has none
 * @param rule what the rule asks, starting with a verb ("must be in [1, 4294967296]")
 */
public record Violation(Setting setting, @Nullable Object value, String rule) {

	/**
	 * Creates a violation.
	 * @param setting the setting
	 * @param value the value it has, or {@code null}
	 * @param rule what the rule asks, starting with a verb
	 */
	public Violation {
		Objects.requireNonNull(setting, "setting");
		Objects.requireNonNull(rule, "rule");
	}

	/**
	 * Returns the violation a builder of crid-core or crid-jdbc reported, with its
	 * setting as the property it is read from.
	 * @param builder the builder that refused it
	 * @param refused what it refused
	 * @return the violation; for a setting that no property sets, its rule names the
	 * builder's setting
	 */
	public static Violation of(Setting.Builder builder, dev.crid.InvalidConfigException.Violation refused) {
		Setting setting = Setting.of(builder, refused);
		return new Violation(setting, refused.value(),
				(setting == Setting.CUSTOMIZED) ? refused.setting() + " " + refused.rule() : refused.rule());
	}

}

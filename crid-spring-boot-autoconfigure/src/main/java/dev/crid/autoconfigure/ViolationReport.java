package dev.crid.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * Turns the rules a node's settings break into the words of a failure analysis, whether
 * crid-core, crid-jdbc or the auto-configuration found them, for the default node's
 * properties ({@code crid.*}) and a named node's ({@code crid.nodes.<name>.*}) alike:
 * each violation's property, value, origin and rule, then each fix once.
 */
final class ViolationReport {

	private ViolationReport() {
	}

	/**
	 * Describes the violations.
	 * @param node the node's name
	 * @param violations the rules broken
	 * @param note what follows them, or {@code null}
	 * @param origins where each property's value came from, by the property's name, or
	 * {@code null} where it is not known
	 */
	static String describe(String node, List<Violation> violations, @Nullable String note,
			Function<String, @Nullable String> origins) {
		StringBuilder description = new StringBuilder("The crid configuration is invalid:\n");
		for (Violation violation : violations) {
			List<String> properties = violation.setting().properties(node);
			description.append('\n');
			if (!properties.isEmpty()) {
				description.append("    Property: ").append(String.join(" + ", properties)).append('\n');
				description.append("    Value: ").append(shown(violation.value())).append('\n');
			}
			for (String property : properties) {
				String origin = origins.apply(property);
				if (origin != null) {
					description.append("    Origin: ")
						.append((properties.size() > 1) ? property + " from " : "")
						.append(origin)
						.append('\n');
				}
			}
			description.append("    Reason: ").append(violation.rule()).append('\n');
		}
		if (note != null) {
			description.append('\n').append(note).append('\n');
		}
		return description.toString();
	}

	/**
	 * Says how to fix the violations, each fix once.
	 */
	static String action(String node, List<Violation> violations) {
		Set<String> fixes = new LinkedHashSet<>();
		violations.forEach((violation) -> fixes.add(violation.setting().fix(node)));
		return "Update your application's configuration:\n    - " + String.join("\n    - ", new ArrayList<>(fixes));
	}

	private static String shown(@Nullable Object value) {
		return (value instanceof CharSequence) ? "\"" + value + "\"" : String.valueOf(value);
	}

}

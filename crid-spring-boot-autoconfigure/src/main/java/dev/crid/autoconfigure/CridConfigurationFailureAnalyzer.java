package dev.crid.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Turns a {@link CridConfigurationException} into the description and action Spring Boot
 * prints when start-up fails: for each rule broken, the property, its value, where the
 * value came from (the file and line of an {@code application.properties}, say), the rule
 * and the fix.
 */
class CridConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<CridConfigurationException> {

	private final PropertyOrigins origins;

	CridConfigurationFailureAnalyzer(Environment environment) {
		this.origins = new PropertyOrigins(environment);
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, CridConfigurationException cause) {
		if (cause.violations().isEmpty()) {
			return new FailureAnalysis(cause.description(), cause.action(), cause);
		}
		return new FailureAnalysis(
				ViolationReport.describe(cause.node(), cause.violations(), cause.note(), this.origins), cause.action(),
				cause);
	}

}

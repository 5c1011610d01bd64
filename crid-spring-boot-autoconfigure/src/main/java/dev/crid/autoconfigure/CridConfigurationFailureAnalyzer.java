package dev.crid.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a {@link CridConfigurationException} into the description and action Spring Boot
 * prints when start-up fails.
 */
class CridConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<CridConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, CridConfigurationException cause) {
		return new FailureAnalysis(cause.description(), cause.action(), cause);
	}

}

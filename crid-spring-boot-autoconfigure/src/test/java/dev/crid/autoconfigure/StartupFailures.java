package dev.crid.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the tests read of a start-up that crid stopped.
 */
public final class StartupFailures {

	private StartupFailures() {
	}

	/**
	 * Returns crid's failure analysis of a context that failed to start, as Spring Boot
	 * would print it, but without origins: the contexts of the tests have no files.
	 * @param context the context
	 * @return the analysis
	 */
	public static FailureAnalysis analyze(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		FailureAnalysis analysis = new CridConfigurationFailureAnalyzer(new StandardEnvironment())
			.analyze(context.getStartupFailure());
		assertThat(analysis).as("failure analysis of %s", context.getStartupFailure()).isNotNull();
		return analysis;
	}

	/**
	 * Returns crid's failure among the causes of a start-up failure.
	 * @param failure the start-up failure
	 * @return crid's failure, or {@code null}
	 */
	public static @Nullable CridConfigurationException cridFailure(@Nullable Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof CridConfigurationException crid) {
				return crid;
			}
		}
		return null;
	}

}

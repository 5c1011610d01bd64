package dev.crid.testsupport;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;
import org.opentest4j.TestAbortedException;

/**
 * Reports every test of a class whose {@code @BeforeAll} method was aborted (a database
 * that {@link TestDatabase} did not find, outside CI) as skipped, test by test.
 *
 * <p>
 * JUnit reports such a class as one aborted container, which Maven Surefire and Failsafe
 * count as nothing at all ("Tests run: 0, Skipped: 0"), as if the class did not exist.
 * This extension remembers the abort instead of letting it end the class, and aborts each
 * test with the same reason before the test instance is prepared (before Spring loads a
 * context for it), so the reports count every test as skipped. Any other failure of a
 * {@code @BeforeAll} method goes through unchanged. The build registers it for the tests
 * of every module through JUnit's extension auto-detection.
 *
 * <p>
 * Spring tests that read {@link TestDatabase#endpoint()} while their context loads (in a
 * {@code @DynamicPropertySource} method) call it in a {@code @BeforeAll} method first:
 * Spring reports an abort during the context's loading as an error.
 */
public final class SkippedClassReporting
		implements LifecycleMethodExecutionExceptionHandler, TestInstancePostProcessor, BeforeEachCallback {

	private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace
		.create(SkippedClassReporting.class);

	private static final String ABORT = "abort";

	/**
	 * Creates the extension; JUnit does.
	 */
	public SkippedClassReporting() {
	}

	@Override
	public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable throwable)
			throws Throwable {
		if (!(throwable instanceof TestAbortedException aborted)) {
			throw throwable;
		}
		context.getStore(NAMESPACE).put(ABORT, aborted);
	}

	/**
	 * Lets an {@code @AfterAll} method that needs the missing database too (to drop what
	 * the class would have created) skip quietly, once the class was skipped.
	 */
	@Override
	public void handleAfterAllMethodExecutionException(ExtensionContext context, Throwable throwable) throws Throwable {
		if (!(throwable instanceof TestAbortedException) || classAbort(context) == null) {
			throw throwable;
		}
	}

	@Override
	public ExtensionContextScope getTestInstantiationExtensionContextScope(ExtensionContext rootContext) {
		return ExtensionContextScope.TEST_METHOD;
	}

	@Override
	public void postProcessTestInstance(Object testInstance, ExtensionContext context) {
		abortIfTheClassWasAborted(context);
	}

	@Override
	public void beforeEach(ExtensionContext context) {
		abortIfTheClassWasAborted(context);
	}

	private static void abortIfTheClassWasAborted(ExtensionContext context) {
		TestAbortedException aborted = classAbort(context);
		if (aborted != null) {
			throw new TestAbortedException(aborted.getMessage(), aborted);
		}
	}

	private static TestAbortedException classAbort(ExtensionContext context) {
		return context.getStore(NAMESPACE).get(ABORT, TestAbortedException.class);
	}

}

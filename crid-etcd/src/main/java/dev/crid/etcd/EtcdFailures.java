package dev.crid.etcd;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;

import io.etcd.jetcd.common.exception.ClosedClientException;
import io.etcd.jetcd.common.exception.ErrorCode;
import io.etcd.jetcd.common.exception.EtcdException;
import io.etcd.jetcd.common.exception.EtcdExceptionFactory;

import dev.crid.RegistryException;

/**
 * Tells the failures of a request to etcd that asking again may mend from those only a
 * change of configuration can, by the gRPC status etcd answered with, never by its
 * message alone.
 *
 * <p>
 * Never retryable: a refused login or a missing user ({@code INVALID_ARGUMENT},
 * {@code FAILED_PRECONDITION}, {@code UNAUTHENTICATED}), a refused permission on the
 * registry's keys ({@code PERMISSION_DENIED}), a request the server does not know
 * ({@code UNIMPLEMENTED}), and a jetcd client that was closed. Everything else stays
 * retryable: an unreachable member or cluster, a member without a leader, a leader that
 * changed or a request that timed out inside etcd ({@code UNAVAILABLE}), an exhausted
 * quota, an internal error. An expired or unknown auth token is retryable too: jetcd logs
 * in again.
 */
final class EtcdFailures {

	private static final Set<ErrorCode> LASTING = Set.of(ErrorCode.INVALID_ARGUMENT, ErrorCode.FAILED_PRECONDITION,
			ErrorCode.UNAUTHENTICATED, ErrorCode.PERMISSION_DENIED, ErrorCode.UNIMPLEMENTED);

	private static final Set<String> PASSING_AUTH_FAILURES = Set.of("etcdserver: invalid auth token",
			"etcdserver: revision of auth store is old");

	private EtcdFailures() {
	}

	/** The registry's exception for a request that failed. */
	static RegistryException failure(String task, Duration timeout, Throwable thrown) {
		Throwable cause = unwrap(thrown);
		if (cause instanceof ClosedClientException || cause instanceof RejectedExecutionException) {
			return new RegistryException("Could not " + task + ": the jetcd client is closed (" + cause + ")", cause,
					false);
		}
		EtcdException etcd = EtcdExceptionFactory.toEtcdException(cause);
		boolean retryable = isRetryable(etcd);
		return new RegistryException("Could not " + task + " (timeout " + timeout + "): " + etcd.getErrorCode() + " "
				+ etcd.getMessage() + rootCause(cause) + (retryable ? "" : "; asking again cannot mend this"), cause,
				retryable);
	}

	static boolean isRetryable(EtcdException failure) {
		if (failure.getErrorCode() == ErrorCode.UNAUTHENTICATED
				&& PASSING_AUTH_FAILURES.contains(String.valueOf(failure.getMessage()))) {
			return true;
		}
		return !LASTING.contains(failure.getErrorCode());
	}

	private static Throwable unwrap(Throwable thrown) {
		Throwable cause = thrown;
		while (cause instanceof CompletionException && cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	/** Names the innermost cause, where gRPC keeps "connection refused" and the like. */
	private static String rootCause(Throwable failure) {
		Throwable root = failure;
		for (int depth = 0; root.getCause() != null && root.getCause() != root && depth < 20; depth++) {
			root = root.getCause();
		}
		return (root != failure) ? "; root cause: " + root : "";
	}

}

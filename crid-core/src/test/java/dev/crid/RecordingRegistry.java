package dev.crid;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A registry that records every call and answers from a script before falling back to a
 * default answer (by default: delegate to a real registry). Lets a test make the registry
 * throw, stall or return impossible starts, one call at a time.
 */
final class RecordingRegistry implements Registry {

	private final Registry delegate;

	private final ConcurrentLinkedQueue<Answer> script = new ConcurrentLinkedQueue<>();

	private final List<Call> calls = new ArrayList<>();

	private volatile Answer fallback;

	RecordingRegistry(Registry delegate) {
		this.delegate = delegate;
		this.fallback = Registry::allocate;
	}

	/** Answers the next unanswered call with the given answer. */
	RecordingRegistry then(Answer answer) {
		this.script.add(answer);
		return this;
	}

	/** Answers every call beyond the script with the given answer. */
	RecordingRegistry otherwise(Answer answer) {
		this.fallback = answer;
		return this;
	}

	/** Answers every call beyond the script from the delegate again. */
	RecordingRegistry heal() {
		return otherwise(Registry::allocate);
	}

	@Override
	public long allocate(long timestamp, long blockSize) {
		Answer answer = this.script.poll();
		if (answer == null) {
			answer = this.fallback;
		}
		Thread thread = Thread.currentThread();
		long calledAt = System.nanoTime();
		try {
			long start = answer.answer(this.delegate, timestamp, blockSize);
			record(new Call(timestamp, blockSize, start, null, thread, calledAt));
			return start;
		}
		catch (RuntimeException | Error ex) {
			record(new Call(timestamp, blockSize, -1, ex, thread, calledAt));
			throw ex;
		}
	}

	private void record(Call call) {
		synchronized (this.calls) {
			this.calls.add(call);
		}
	}

	List<Call> calls() {
		synchronized (this.calls) {
			return List.copyOf(this.calls);
		}
	}

	int callCount() {
		synchronized (this.calls) {
			return this.calls.size();
		}
	}

	@Override
	public String toString() {
		return "RecordingRegistry[" + this.delegate + "]";
	}

	/** One scripted answer. */
	@FunctionalInterface
	interface Answer {

		long answer(Registry delegate, long timestamp, long blockSize);

		static Answer start(long start) {
			return (delegate, timestamp, blockSize) -> start;
		}

		static Answer fail(RuntimeException failure) {
			return (delegate, timestamp, blockSize) -> {
				throw failure;
			};
		}

	}

	/**
	 * One finished call: its arguments, the start returned (or -1) or the failure thrown,
	 * the thread that made it and when it was made ({@link System#nanoTime()}).
	 */
	record Call(long timestamp, long blockSize, long start, Throwable failure, Thread thread, long calledAt) {
	}

}

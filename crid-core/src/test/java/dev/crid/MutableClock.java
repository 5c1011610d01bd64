package dev.crid;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that stands still until a test moves it, forwards or backwards. Thread-safe.
 */
final class MutableClock extends Clock {

	private final AtomicReference<Instant> now;

	MutableClock(Instant now) {
		this.now = new AtomicReference<>(now);
	}

	void set(Instant instant) {
		this.now.set(instant);
	}

	void advance(Duration duration) {
		this.now.updateAndGet((instant) -> instant.plus(duration));
	}

	@Override
	public Instant instant() {
		return this.now.get();
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException("A MutableClock is always in UTC");
	}

}

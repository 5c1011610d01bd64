package dev.crid.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The system clock plus an offset a test steps forwards or backwards while nodes read it,
 * as a clock that NTP (or an operator) steps does. Thread-safe.
 */
public final class SteppedClock extends Clock {

	private volatile Duration offset;

	/**
	 * Creates a clock that many seconds off the system clock.
	 * @param offset how far ahead of the system clock (negative: behind)
	 */
	public SteppedClock(Duration offset) {
		this.offset = offset;
	}

	/**
	 * Steps the clock: from now on it reads the system clock plus this offset.
	 * @param offset how far ahead of the system clock (negative: behind)
	 */
	public void offset(Duration offset) {
		this.offset = offset;
	}

	@Override
	public Instant instant() {
		return Instant.now().plus(this.offset);
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException("A SteppedClock is always in UTC");
	}

}

package dev.crid.jdbc;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The system clock plus an offset a test steps forwards or backwards while nodes read it, as a clock
 * that NTP (or an operator) steps does. Thread-safe.
 */
final class SteppedClock extends Clock {

	private volatile Duration offset;

	SteppedClock(Duration offset) {
		this.offset = offset;
	}

	void offset(Duration offset) {
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

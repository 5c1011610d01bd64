package dev.crid;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests how a {@link Runway} measures the rate, sizes the stock and hands it out.
 */
class RunwayTest {

	private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

	private static final double PER_SECOND = 1.0 / SECOND;

	@Test
	void rateIsTheIdsHandedOutOverTheLastMinute() {
		Runway runway = new Runway(Duration.ofSeconds(10), 1_000, 1L << 32);
		long issued = 0;
		for (int second = 0; second <= 60; second++) { // a minute at 100,000 IDs a second
			runway.sample(second * SECOND, issued);
			issued += 100_000;
		}
		issued -= 100_000;
		assertThat(runway.rate(60 * SECOND, issued) / PER_SECOND).isCloseTo(100_000, within(1.0));
		for (int second = 61; second <= 120; second++) { // then a minute at 10,000
			issued += 10_000;
			runway.sample(second * SECOND, issued);
		}
		assertThat(runway.rate(120 * SECOND, issued) / PER_SECOND).isCloseTo(10_000, within(1.0));
	}

	@Test
	void rateBeforeAMinuteIsOverTheTimeSinceTheFirstSample() {
		Runway runway = new Runway(Duration.ofSeconds(10), 1_000, 1L << 32);
		runway.sample(0, 0);
		assertThat(runway.rate(SECOND / 2, 25_000) / PER_SECOND).isCloseTo(50_000, within(1.0));
	}

	@Test
	void rateIsNeverBelowTheBlockSizePerSecondNorMeasuredOverLessThanATenthOfASecond() {
		Runway runway = new Runway(Duration.ofSeconds(10), 1_000, 1L << 32);
		assertThat(runway.rate(0, 0) / PER_SECOND).isCloseTo(1_000, within(1e-6));
		runway.sample(0, 0);
		assertThat(runway.rate(SECOND / 20, 1_000_000) / PER_SECOND).isCloseTo(1_000, within(1e-6));
		assertThat(runway.rate(10 * SECOND, 10) / PER_SECOND).isCloseTo(1_000, within(1e-6));
	}

	@Test
	void refillsToTheTargetAndABlockInCallsOfAtLeastAQuarterOfTheTarget() {
		Runway runway = new Runway(Duration.ofSeconds(10), 1_000, 1L << 32);
		double rate = 50_000 * PER_SECOND;
		assertThat(runway.target(rate)).isEqualTo(500_000);
		assertThat(runway.refillSize(0, rate, 10_000)).isEqualTo(510_000);
		assertThat(runway.refillSize(450_000, rate, 10_000)).isEqualTo(125_000);
		assertThat(runway.refillSize(499_999, rate, 200_000)).isEqualTo(200_001);
		assertThat(runway.refillSize(509_999, rate, 10_000)).isEqualTo(125_000);
		assertThat(runway.refillSize(510_000, rate, 10_000)).isZero();
	}

	@Test
	void oneCallTakesAtMostASixteenthOfASecondsSequenceNumbers() {
		Runway runway = new Runway(Duration.ofMinutes(2), 10_000, 1L << 22);
		assertThat(runway.refillSize(0, 100_000 * PER_SECOND, 10_000)).isEqualTo((1L << 22) / 16);
	}

	@Test
	void noRunwayRefillsNothing() {
		Runway runway = new Runway(Duration.ZERO, 1_000, 1L << 32);
		assertThat(runway.enabled()).isFalse();
		assertThat(runway.refillSize(0, 50_000 * PER_SECOND, 10_000)).isZero();
	}

	@Test
	void stockIsHandedOutInBlocksThatFollowOneAnother() {
		Runway runway = new Runway(Duration.ofSeconds(10), 1_000, 1L << 32);
		runway.add(new Block(7, 100, (7L << 32) | 100, 250));
		runway.add(new Block(8, 0, 8L << 32, 50));
		assertThat(runway.ids()).isEqualTo(300);
		Block first = runway.take(100);
		Block second = runway.take(100);
		Block third = runway.take(100);
		Block fourth = runway.take(100);
		assertThat(new long[] { first.start, first.size, second.start, second.size, third.start, third.size })
			.containsExactly(100, 100, 200, 100, 300, 50);
		assertThat(second.firstId).isEqualTo(first.firstId + 100);
		assertThat(third.timestamp).isEqualTo(7);
		assertThat(fourth.timestamp).isEqualTo(8);
		assertThat(fourth.size).isEqualTo(50);
		assertThat(runway.take(100)).isNull();
		assertThat(runway.ids()).isZero();
	}

	@Test
	void clearingLosesTheStock() {
		Runway runway = new Runway(Duration.ofSeconds(10), 1_000, 1L << 32);
		runway.add(new Block(7, 0, 7L << 32, 250));
		runway.next(100);
		assertThat(runway.ids()).isEqualTo(250);
		runway.clear();
		assertThat(runway.ids()).isZero();
		assertThat(runway.hasNext()).isFalse();
		assertThat(runway.take(1)).isNull();
	}

	@Test
	void durationIsTheIdsHeldAtTheRate() {
		assertThat(Runway.duration(500_000, 50_000 * PER_SECOND)).isEqualTo(Duration.ofSeconds(10));
	}

}

package dev.crid;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests how a {@link Runway} and the {@link RateMeter} it reads measure the rate, size
 * the stock, keep to a second's share and drop expired blocks, and that a node without
 * one holds the next block only ({@link NextBlockOnly}).
 */
class RunwayTest {

	private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

	private static final double PER_SECOND = 1.0 / SECOND;

	private static Runway runway(Duration runway, long blockSize, long sequencesPerSecond) {
		return runway(runway, blockSize, sequencesPerSecond, RateMeter.forRunway(runway));
	}

	private static Runway runway(Duration runway, long blockSize, long sequencesPerSecond, RateMeter meter) {
		Pacing pacing = new Pacing(blockSize, blockSize / 2, sequencesPerSecond);
		return new Runway(runway, sequencesPerSecond, pacing, meter, new CurrentBlock(pacing, meter), () -> 7);
	}

	@Test
	void rateIsTheIdsHandedOutOverTheLastRunway() {
		RateMeter runway = RateMeter.forRunway(Duration.ofSeconds(10));
		long issued = 0;
		for (int second = 0; second <= 20; second++) { // 100,000 IDs a second
			runway.sample(second * SECOND, issued);
			issued += 100_000;
		}
		issued -= 100_000;
		assertThat(runway.rate(20 * SECOND, issued) / PER_SECOND).isCloseTo(100_000, within(1.0));
		for (int second = 21; second <= 40; second++) { // then 10,000 a second
			issued += 10_000;
			runway.sample(second * SECOND, issued);
		}
		assertThat(runway.rate(40 * SECOND, issued) / PER_SECOND).isCloseTo(10_000, within(1.0));
	}

	@Test
	void aBurstAfterAQuietSpellCountsOverTheWholeWindow() {
		RateMeter meter = RateMeter.forRunway(Duration.ofSeconds(10));
		Runway runway = runway(Duration.ofSeconds(10), 1_000, 1L << 32, meter);
		meter.sample(0, 0);
		// A minute without a call, then 2,000,000 IDs within half a second: 200,000 a
		// second over the 10 s window, not 4,000,000 a second over the burst.
		meter.sample(60 * SECOND, 0);
		assertThat(meter.rate(60 * SECOND + SECOND / 2, 2_000_000) / PER_SECOND).isCloseTo(200_000, within(1.0));
		assertThat(runway.target(meter.rate(60 * SECOND + SECOND / 2, 2_000_000))).isEqualTo(2_000_000);
	}

	@Test
	void aYoungNodeIsMeasuredOverTheWholeWindowToo() {
		RateMeter runway = RateMeter.forRunway(Duration.ofSeconds(10));
		assertThat(runway.rate(0, 0)).isZero();
		runway.sample(0, 0);
		assertThat(runway.rate(SECOND / 2, 25_000) / PER_SECOND).isCloseTo(2_500, within(1e-6));
	}

	@Test
	void theRateOverTheLatestBlocksWeighsEachBlockHalfTheOneAfterIt() {
		RateMeter meter = RateMeter.forRunway(Duration.ZERO);
		assertThat(meter.blockRate()).isZero();
		meter.blockServed(1_000, SECOND);
		assertThat(meter.blockRate() / PER_SECOND).isCloseTo(1_000, within(1e-6));
		meter.blockServed(3_000, SECOND);
		meter.blockServed(6_000, SECOND);
		assertThat(meter.blockRate() / PER_SECOND).isCloseTo(4_000, within(1e-6));
	}

	@Test
	void theWindowIsTheRunwayWithinASecondAndAMinute() {
		assertThat(RateMeter.forRunway(Duration.ofMillis(200)).window()).isEqualTo(Duration.ofSeconds(1));
		assertThat(RateMeter.forRunway(Duration.ofSeconds(30)).window()).isEqualTo(Duration.ofSeconds(30));
		assertThat(RateMeter.forRunway(Duration.ofHours(1)).window()).isEqualTo(Duration.ofMinutes(1));
	}

	@Test
	void restocksToTheTargetAndABlockInCallsOfAtLeastAQuarterOfTheTarget() {
		Runway runway = runway(Duration.ofSeconds(10), 1_000, 1L << 32);
		double rate = 50_000 * PER_SECOND;
		assertThat(runway.target(rate)).isEqualTo(500_000);
		assertThat(runway.restockSize(0, rate, 10_000, 7)).isEqualTo(510_000);
		assertThat(runway.restockSize(450_000, rate, 10_000, 7)).isEqualTo(125_000);
		assertThat(runway.restockSize(499_999, rate, 200_000, 7)).isEqualTo(200_001);
		assertThat(runway.restockSize(509_999, rate, 10_000, 7)).isEqualTo(125_000);
		assertThat(runway.restockSize(510_000, rate, 10_000, 7)).isZero();
	}

	@Test
	void restocksTakeAtMostASixteenthOfASecondsSequenceNumbersInOneSecond() {
		Runway runway = runway(Duration.ofMinutes(2), 10_000, 1L << 22);
		double rate = 100_000 * PER_SECOND;
		long share = (1L << 22) / 16;
		assertThat(runway.restockSize(0, rate, 10_000, 7)).isEqualTo(share);
		runway.received(new Block(7, 0, 7L << 22, share - 50_000));
		assertThat(runway.restockSize(0, rate, 10_000, 7)).isEqualTo(50_000);
		runway.received(new Block(7, share - 50_000, (7L << 22) + share - 50_000, 45_000));
		assertThat(runway.restockSize(0, rate, 10_000, 7)).as("less than a block left of the share").isZero();
		assertThat(runway.restockSize(0, rate, 10_000, 8)).as("the next second").isEqualTo(share);
	}

	@Test
	void withoutARunwayOnlyTheNextBlockIsReservedAhead() {
		Stock next = new NextBlockOnly(new Pacing(10_000, 5_000, 1L << 32));
		assertThat(next.wanted(0)).as("nothing ready: one block").isEqualTo(10_000);
		next.received(new Block(7, 0, 7L << 32, 10_000));
		assertThat(next.wanted(0)).as("a block ready").isZero();
		assertThat(next.take(0)).as("no stock behind the next block").isNull();
		assertThat(next.next(Long.MAX_VALUE).size).as("a block in full, never expired").isEqualTo(10_000);
		assertThat(next.blocksExpire()).isFalse();
		assertThat(Runway.maxAgeNanos(Duration.ZERO)).isEqualTo(Long.MAX_VALUE);
	}

	@Test
	void stockIsHandedOutInBlocksThatFollowOneAnother() {
		Runway runway = runway(Duration.ofSeconds(10), 1_000, 1L << 32);
		runway.add(new Block(7, 100, (7L << 32) | 100, 250));
		runway.add(new Block(8, 0, 8L << 32, 50));
		assertThat(runway.ids()).isEqualTo(300);
		Block first = runway.take(100, 0);
		Block second = runway.take(100, 0);
		Block third = runway.take(100, 0);
		Block fourth = runway.take(100, 0);
		assertThat(new long[] { first.start, first.size, second.start, second.size, third.start, third.size })
			.containsExactly(100, 100, 200, 100, 300, 50);
		assertThat(second.firstId).isEqualTo(first.firstId + 100);
		assertThat(third.timestamp).isEqualTo(7);
		assertThat(fourth.timestamp).isEqualTo(8);
		assertThat(fourth.size).isEqualTo(50);
		assertThat(runway.take(100, 0)).isNull();
		assertThat(runway.ids()).isZero();
	}

	@Test
	void expiredBlocksAreDroppedAndNeverHandedOut() {
		Runway runway = runway(Duration.ofSeconds(10), 1_000, 1L << 32);
		assertThat(Runway.maxAgeNanos(Duration.ofSeconds(10))).isEqualTo(12_500_000_000L);
		runway.add(new Block(7, 0, 7L << 32, 250, 5 * SECOND));
		runway.add(new Block(8, 0, 8L << 32, 50, 9 * SECOND));
		Block part = runway.take(100, 5 * SECOND);
		assertThat(part.expiresAt).as("a part expires with its block").isEqualTo(5 * SECOND);
		assertThat(part.expired(5 * SECOND)).isFalse();
		assertThat(part.expired(5 * SECOND + 1)).isTrue();
		Block next = runway.next(5 * SECOND + 1);
		assertThat(next.timestamp).isEqualTo(8);
		assertThat(runway.ids()).isEqualTo(50);
		assertThat(runway.next(9 * SECOND + 1)).as("the ready block expired too").isNull();
		assertThat(runway.ids()).isZero();
	}

	@Test
	void clearingLosesTheStock() {
		Runway runway = runway(Duration.ofSeconds(10), 1_000, 1L << 32);
		runway.add(new Block(7, 0, 7L << 32, 250));
		runway.next(0);
		assertThat(runway.ids()).isEqualTo(250);
		runway.clear();
		assertThat(runway.ids()).isZero();
		assertThat(runway.hasNext()).isFalse();
		assertThat(runway.take(1, 0)).isNull();
	}

	@Test
	void durationIsTheIdsHeldAtTheRateAndAtLeastOneIdAWindow() {
		RateMeter meter = RateMeter.forRunway(Duration.ofSeconds(10));
		assertThat(meter.lasts(500_000, 50_000 * PER_SECOND)).isEqualTo(Duration.ofSeconds(10));
		assertThat(meter.lasts(3, 0)).isEqualTo(Duration.ofSeconds(30));
	}

}

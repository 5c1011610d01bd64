package dev.crid.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;
import dev.crid.CridLayout;
import dev.crid.CridNode;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layout the README recommends for IDs that JavaScript clients read as numbers: 41
 * timestamp bits and 22 sequence bits keep every ID below 2^53 for the first 2^31 seconds
 * (68 years) after the epoch, and not one second longer. A JavaScript number holds every
 * integer below 2^53 exactly, and not all above.
 */
class JavaScriptSafeLayoutTest {

	private static final long TWO_TO_THE_53 = 1L << 53;

	private static final long SAFE_SECONDS = 1L << 31;

	private static final CridLayout LAYOUT = CridLayout.of(CridLayout.DEFAULT_EPOCH, 41, 22);

	@Test
	void theLastIdOfTheSixtyEightYearsIsBelowTwoToThe53AndTheNextSecondReachesIt() {
		long lastSafe = LAYOUT.encode(SAFE_SECONDS - 1, LAYOUT.maxSequence());
		assertThat(lastSafe).isEqualTo(TWO_TO_THE_53 - 1);
		assertThat(LAYOUT.encode(SAFE_SECONDS, 0)).isEqualTo(TWO_TO_THE_53);
		assertThat(exactInJavaScript(lastSafe)).isTrue();
		assertThat(exactInJavaScript(LAYOUT.encode(SAFE_SECONDS, 1))).isFalse();
		assertThat(LAYOUT.epoch().plusSeconds(SAFE_SECONDS - 1)).isEqualTo("2094-01-19T03:14:07Z");
		assertThat(Duration.ofSeconds(SAFE_SECONDS).toDays() / 365.25).isBetween(68.0, 68.1);
	}

	@Test
	void givesRoomForFourMillionIdsPerSecondAcrossAllNodes() {
		assertThat(LAYOUT.maxSequence() + 1).isEqualTo(4_194_304);
	}

	@Test
	void theDefaultLayoutPassesTwoToThe53WithinItsFirstMonth() {
		CridLayout layout = CridLayout.DEFAULT;
		long firstUnsafeSecond = TWO_TO_THE_53 >>> layout.sequenceBits();
		assertThat(layout.encode(firstUnsafeSecond - 1, layout.maxSequence())).isLessThan(TWO_TO_THE_53);
		assertThat(layout.encode(firstUnsafeSecond, 0)).isEqualTo(TWO_TO_THE_53);
		assertThat(Duration.ofSeconds(firstUnsafeSecond).toHours()).isEqualTo(582);
	}

	@Test
	void anApplicationConfiguredThatWayIssuesSafeIdsUntilTheLastSecondAndNotAfter() {
		Instant lastSafeSecond = CridLayout.DEFAULT_EPOCH.plusSeconds(SAFE_SECONDS - 1);
		assertThat(idAt(lastSafeSecond)).isLessThan(TWO_TO_THE_53);
		assertThat(idAt(lastSafeSecond.plusSeconds(1))).isGreaterThanOrEqualTo(TWO_TO_THE_53);
	}

	private static long idAt(Instant instant) {
		long[] id = new long[1];
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(CridRegistryAutoConfiguration.class, CridAutoConfiguration.class))
			.withPropertyValues("crid.registry.type=memory", "crid.timestamp-bits=41", "crid.sequence-bits=22")
			.withBean(CridNodeCustomizer.class, () -> (builder) -> builder.clock(Clock.fixed(instant, ZoneOffset.UTC)))
			.run((context) -> {
				CridNode node = context.getBean(CridNode.class);
				assertThat(node.layout()).isEqualTo(LAYOUT);
				id[0] = node.nextId();
				assertThat(node.parser().parse(id[0]).timestamp()).isEqualTo(instant);
			});
		return id[0];
	}

	private static boolean exactInJavaScript(long id) {
		return (long) (double) id == id;
	}

}

package dev.crid.benchmarks.capacity;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class FairnessTest {

	@Test
	void equalSharesAreFair() {
		Fairness fairness = Fairness.of(new double[] { 5, 5, 5, 5 });
		assertThat(fairness.minOverMax()).isEqualTo(1);
		assertThat(fairness.jain()).isEqualTo(1);
	}

	@Test
	void oneNodeWithEverythingScoresOneOverTheNodeCount() {
		Fairness fairness = Fairness.of(new double[] { 8, 0, 0, 0 });
		assertThat(fairness.minOverMax()).isZero();
		assertThat(fairness.jain()).isCloseTo(0.25, within(1e-12));
	}

	@Test
	void halfTheNodesStarvedScoresOneHalf() {
		Fairness fairness = Fairness.of(new double[] { 3, 3, 0, 0 });
		assertThat(fairness.jain()).isCloseTo(0.5, within(1e-12));
	}

}

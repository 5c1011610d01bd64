package dev.crid.benchmarks.capacity;

/**
 * How evenly a quantity is spread over nodes: the smallest share beside the largest, and
 * Jain's index, {@code (Σx)² / (n · Σx²)}, which is 1 when every node has the same and
 * {@code 1/n} when one node has everything.
 *
 * @param minOverMax the smallest value divided by the largest (1 when all are equal)
 * @param jain Jain's fairness index
 */
record Fairness(double minOverMax, double jain) {

	static Fairness of(double[] values) {
		if (values.length == 0) {
			return new Fairness(Double.NaN, Double.NaN);
		}
		double min = Double.POSITIVE_INFINITY;
		double max = Double.NEGATIVE_INFINITY;
		double sum = 0;
		double squares = 0;
		for (double value : values) {
			min = Math.min(min, value);
			max = Math.max(max, value);
			sum += value;
			squares += value * value;
		}
		double minOverMax = (max == 0) ? 1 : min / max;
		double jain = (squares == 0) ? 1 : sum * sum / (values.length * squares);
		return new Fairness(minOverMax, jain);
	}

}

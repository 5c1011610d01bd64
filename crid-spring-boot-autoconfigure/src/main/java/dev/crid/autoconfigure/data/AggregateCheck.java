package dev.crid.autoconfigure.data;

import dev.crid.InvalidConfigException;
import dev.crid.autoconfigure.CridConfigurationException;

import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Checks the aggregates of a mapping context once every bean exists (so after the
 * repositories have added theirs), and stops start-up, naming every aggregate and field
 * that misuses {@code @dev.crid.data.Crid}.
 */
final class AggregateCheck implements SmartInitializingSingleton {

	private final Runnable verify;

	private final String store;

	/**
	 * Creates the check.
	 * @param verify the callback's {@code verify} method
	 * @param store what the aggregates are stored with, for the message: "Spring Data
	 * JDBC", say
	 */
	AggregateCheck(Runnable verify, String store) {
		this.verify = verify;
		this.store = store;
	}

	@Override
	public void afterSingletonsInstantiated() {
		try {
			this.verify.run();
		}
		catch (InvalidConfigException ex) {
			throw new CridConfigurationException(
					"@dev.crid.data.Crid is misused on " + this.store + " aggregates: "
							+ ex.violations()
								.stream()
								.map(InvalidConfigException.Violation::message)
								.collect(java.util.stream.Collectors.joining("; ")),
					"Put @Crid on each aggregate's @Id only, of type long, Long, String or dev.crid.CridId, naming "
							+ "no node (the default node) or one of crid.nodes",
					ex);
		}
	}

}

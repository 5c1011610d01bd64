package dev.crid.hibernate;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects the warnings crid-hibernate logs at start-up. They go through
 * {@link System.Logger}, which the JDK hands to java.util.logging when no other logging
 * backend is installed, as in these tests. Close it to detach.
 */
final class WarningRecorder extends Handler implements AutoCloseable {

	// A strong reference: java.util.logging forgets a logger nobody holds, and the
	// handler with it.
	private final Logger logger = Logger.getLogger(CridGeneratorIntegrator.class.getName());

	private final List<String> warnings = new CopyOnWriteArrayList<>();

	WarningRecorder() {
		this.logger.addHandler(this);
	}

	@Override
	public void publish(LogRecord record) {
		if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
			this.warnings.add(record.getMessage());
		}
	}

	/** The messages logged at WARNING or above since this recorder was attached. */
	List<String> warnings() {
		return List.copyOf(this.warnings);
	}

	@Override
	public void flush() {
	}

	@Override
	public void close() {
		this.logger.removeHandler(this);
	}

}

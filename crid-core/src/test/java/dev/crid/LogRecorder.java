package dev.crid;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Records what the node logs through {@link System.Logger}, which the JDK hands to
 * java.util.logging when nothing else is installed. Close it to detach.
 */
final class LogRecorder extends Handler implements AutoCloseable {

	private final Logger logger = Logger.getLogger(CridNode.class.getName());

	private final List<LogRecord> records = new CopyOnWriteArrayList<>();

	LogRecorder() {
		this.logger.addHandler(this);
		setLevel(Level.ALL);
	}

	@Override
	public void publish(LogRecord record) {
		this.records.add(record);
	}

	/** The messages logged at WARNING or above, formatted. */
	List<String> warnings() {
		return this.records.stream()
			.filter((record) -> record.getLevel().intValue() >= Level.WARNING.intValue())
			.map((record) -> record.getMessage())
			.toList();
	}

	@Override
	public void flush() {
	}

	@Override
	public void close() {
		this.logger.removeHandler(this);
	}

}

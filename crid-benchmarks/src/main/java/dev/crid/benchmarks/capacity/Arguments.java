package dev.crid.benchmarks.capacity;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Command-line arguments as {@code -name value} pairs, read with a default for each name
 * that is left out; a name nobody reads is refused, so a typo does not pass unseen.
 */
final class Arguments {

	private final Map<String, String> values = new LinkedHashMap<>();

	private final List<String> read = new ArrayList<>();

	Arguments(String... args) {
		if (args.length % 2 != 0) {
			throw new IllegalArgumentException("Arguments come as -name value pairs, but got " + List.of(args));
		}
		for (int i = 0; i < args.length; i += 2) {
			if (!args[i].startsWith("-") || args[i].length() < 2) {
				throw new IllegalArgumentException("Expected -name, but got \"" + args[i] + "\"");
			}
			this.values.put(args[i].substring(1), args[i + 1]);
		}
	}

	String string(String name, String fallback) {
		this.read.add(name);
		return this.values.getOrDefault(name, fallback);
	}

	long number(String name, long fallback) {
		String value = string(name, Long.toString(fallback));
		try {
			return Long.parseLong(value.replace("_", ""));
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("-" + name + " must be a whole number, but is \"" + value + "\"", ex);
		}
	}

	int integer(String name, int fallback) {
		return Math.toIntExact(number(name, fallback));
	}

	Duration seconds(String name, Duration fallback) {
		return Duration.ofSeconds(number(name, fallback.toSeconds()));
	}

	List<String> list(String name, String fallback) {
		return List.of(string(name, fallback).split(","));
	}

	/**
	 * Refuses names that no one read.
	 * @throws IllegalArgumentException naming them
	 */
	void checkAllRead() {
		List<String> unknown = new ArrayList<>(this.values.keySet());
		unknown.removeAll(this.read);
		if (!unknown.isEmpty()) {
			throw new IllegalArgumentException("Unknown arguments " + unknown + "; known: " + this.read);
		}
	}

}

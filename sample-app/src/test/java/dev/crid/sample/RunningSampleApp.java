package dev.crid.sample;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One instance of the sample application, started in this JVM on a free port with the
 * given settings.
 */
final class RunningSampleApp implements AutoCloseable {

	private final ConfigurableApplicationContext context;

	private final SampleApi api;

	private RunningSampleApp(ConfigurableApplicationContext context) {
		this.context = context;
		this.api = new SampleApi(context.getEnvironment().getRequiredProperty("local.server.port", Integer.class));
	}

	/**
	 * Starts an instance with the given settings, passed as command-line arguments so
	 * that they win over the application's own configuration files, profiles included.
	 */
	static RunningSampleApp start(Map<String, Object> properties) {
		Map<String, Object> settings = new LinkedHashMap<>(properties);
		settings.put("server.port", "0");
		String[] args = settings.entrySet()
			.stream()
			.map((setting) -> "--" + setting.getKey() + "=" + setting.getValue())
			.toArray(String[]::new);
		return new RunningSampleApp(
				new SpringApplicationBuilder(SampleApplication.class).main(SampleApplication.class).run(args));
	}

	SampleApi api() {
		return this.api;
	}

	@Override
	public void close() {
		this.context.close();
	}

}

package dev.crid.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small order service that shows crid as a Spring Boot user meets it: entities whose
 * identifiers come from crid, a REST API that sends them as JSON strings, an endpoint
 * that decodes any ID, a service that takes IDs straight from the
 * {@link dev.crid.CridNode} bean, and the actuator's {@code crid} health component,
 * metrics and endpoint.
 */
@SpringBootApplication
public class SampleApplication {

	/**
	 * Starts the service.
	 * @param args command-line arguments, e.g. {@code --server.port=9090}
	 */
	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}

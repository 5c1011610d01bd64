package dev.crid.autoconfigure;

import dev.crid.CridNode;
import dev.crid.Registry;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Runs in {@link MinimalClasspathTest}'s class loader, which holds only crid-core, this
 * module and Spring Boot's core: starts an application with every auto-configuration and
 * reports what it got.
 */
public final class MinimalClasspathProbe {

	private MinimalClasspathProbe() {
	}

	/**
	 * Starts and stops the application.
	 * @return the registry's class, an ID, and the names of the crid beans
	 */
	public static String run() {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
			.web(WebApplicationType.NONE)
			.properties("spring.main.banner-mode=off")
			.run()) {
			long id = context.getBean(CridNode.class).nextId();
			return context.getBean(Registry.class).getClass().getName() + " " + id + " "
					+ String.join(",", context.getBeanNamesForType(Object.class, false, false));
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

	}

}

package dev.crid.sample;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The sample application as it starts with no settings: on an in-memory H2 database,
 * whose crid registry table crid creates at start-up.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class H2EndToEndIntegrationTest extends AbstractEndToEndIntegrationTest {

	@LocalServerPort
	private int port;

	@Override
	protected SampleApi api() {
		return new SampleApi(this.port);
	}

	@Override
	protected String expectedDialect() {
		return "h2";
	}

}

package dev.crid.sample;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample application on H2 once its database is gone (the connection pool closed
 * under it): every request that needs the database is answered as crid answers a registry
 * that is down, with 503, a {@code Retry-After} of {@code crid.web.retry-after} and a
 * problem detail, not with a bare 500. crid itself still hands out the IDs it holds, so
 * placing an order fails at the database, not at crid.
 */
// create, not create-drop: the schema cannot be dropped at shutdown, with the pool
// closed.
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "crid.web.retry-after=7s", "spring.jpa.hibernate.ddl-auto=create" })
@DirtiesContext
class DatabaseOutageIntegrationTest {

	@LocalServerPort
	private int port;

	@Autowired
	private DataSource dataSource;

	@Test
	void answersEveryRequestWith503WhileTheDatabaseIsDown() throws Exception {
		SampleApi api = new SampleApi(this.port);
		String placed = api.createOrder("Ada", "lamp").get("id").stringValue();
		this.dataSource.unwrap(HikariDataSource.class).close();

		assertUnavailable(
				api.post("/orders", "{\"customer\":\"Ada\",\"items\":[{\"product\":\"pen\",\"quantity\":1}]}"));
		assertUnavailable(api.get("/orders/" + placed));
		assertUnavailable(api.get("/orders?limit=5"));
	}

	private static void assertUnavailable(SampleApi.Response response) {
		assertThat(response.status()).as(response.body()).isEqualTo(503);
		assertThat(response.retryAfter()).isEqualTo("7");
		JsonNode problem = response.json();
		assertThat(problem.get("title").stringValue()).isEqualTo("Database temporarily unavailable");
		assertThat(problem.get("detail").stringValue())
			.isEqualTo("The database is temporarily unavailable; retry in 7 s.");
		assertThat(response.body()).doesNotContain("Exception").doesNotContain("Hikari");
	}

}

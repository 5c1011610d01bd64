package dev.crid.autoconfigure.slices.web;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webflux.test.autoconfigure.WebFluxTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * {@code @WebFluxTest} brings crid's web support and Jackson module: {@code CridId}
 * parameters bind, a malformed one is a 400 problem detail naming the parameter and the
 * reason, a registry that is down is a 503 with {@code Retry-After}, and IDs go out as
 * JSON strings.
 */
@WebFluxTest
@Import(SwitchableRegistry.Beans.class)
class WebFluxSliceTest {

	@Autowired
	private WebTestClient client;

	@Autowired
	private SwitchableRegistry registry;

	@AfterEach
	void registryUp() {
		this.registry.setDown(false);
	}

	@Test
	void bindsAPathVariable() {
		this.client.get()
			.uri("/ids/9007199254740993")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.json("{\"id\":\"9007199254740993\",\"value\":\"9007199254740993\"}", true);
	}

	@Test
	void bindsARequestParameter() {
		this.client.get().uri("/ids?after=42").exchange().expectStatus().isOk().expectBody().json("{\"id\":\"42\"}");
	}

	@Test
	void answersAMalformedPathVariableWithAProblemNamingItAndTheReason() {
		this.client.get()
			.uri("/ids/12ab")
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.json("{\"status\":400,\"title\":\"Invalid crid ID\",\"parameter\":\"id\",\"instance\":\"/ids/12ab\","
					+ "\"detail\":\"Invalid value for parameter 'id': Invalid crid ID \\\"12ab\\\": expected a decimal "
					+ "number from 0 to 9223372036854775807 without sign or blanks\"}", true);
	}

	@Test
	void answersAMalformedRequestParameterWithAProblemNamingItAndTheReason() {
		this.client.get()
			.uri("/ids?after=-1")
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody()
			.jsonPath("$.detail")
			.value((String detail) -> org.assertj.core.api.Assertions.assertThat(detail)
				.startsWith("Invalid value for parameter 'after': Invalid crid ID \"-1\""));
	}

	@Test
	void answers503WithRetryAfterWhenTheRegistryIsDown() {
		this.client.get().uri("/new-id").exchange().expectStatus().isOk();
		this.registry.setDown(true);
		this.client.get()
			.uri("/new-id")
			.exchange()
			.expectStatus()
			.isEqualTo(503)
			.expectHeader()
			.valueEquals("Retry-After", "5")
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody()
			.json("{\"status\":503,\"title\":\"IDs temporarily unavailable\",\"instance\":\"/new-id\","
					+ "\"detail\":\"IDs are temporarily unavailable; retry in 5 s.\"}", true);
	}

}

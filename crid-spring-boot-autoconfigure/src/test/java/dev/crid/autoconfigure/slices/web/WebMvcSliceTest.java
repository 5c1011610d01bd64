package dev.crid.autoconfigure.slices.web;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @WebMvcTest} brings crid's web support and Jackson module: {@code CridId}
 * parameters bind, a malformed one is a 400 problem detail naming the parameter and the
 * reason, a registry that is down is a 503 with {@code Retry-After}, and IDs go out as
 * JSON strings.
 */
@WebMvcTest
@Import(SwitchableRegistry.Beans.class)
class WebMvcSliceTest {

	@Autowired
	private MockMvcTester mvc;

	@Autowired
	private SwitchableRegistry registry;

	@AfterEach
	void registryUp() {
		this.registry.setDown(false);
	}

	@Test
	void bindsAPathVariable() {
		assertThat(this.mvc.get().uri("/ids/9007199254740993")).hasStatusOk()
			.bodyJson()
			.isEqualTo("{\"id\":\"9007199254740993\",\"value\":\"9007199254740993\"}");
	}

	@Test
	void bindsARequestParameter() {
		assertThat(this.mvc.get().uri("/ids?after=42")).hasStatusOk()
			.bodyJson()
			.isEqualTo("{\"id\":\"42\",\"value\":\"42\"}");
	}

	@Test
	void answersAMalformedPathVariableWithAProblemNamingItAndTheReason() {
		assertThat(this.mvc.get().uri("/ids/12ab")).hasStatus(400)
			.hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
			.bodyJson()
			.isEqualTo("{\"status\":400,\"title\":\"Invalid crid ID\",\"parameter\":\"id\",\"instance\":\"/ids/12ab\","
					+ "\"detail\":\"Invalid value for parameter 'id': Invalid crid ID \\\"12ab\\\": expected a decimal "
					+ "number from 0 to 9223372036854775807 without sign or blanks\"}");
	}

	@Test
	void answersAMalformedRequestParameterWithAProblemNamingItAndTheReason() {
		assertThat(this.mvc.get().uri("/ids?after=-1")).hasStatus(400)
			.bodyJson()
			.extractingPath("$.detail")
			.asString()
			.startsWith("Invalid value for parameter 'after': Invalid crid ID \"-1\"");
	}

	@Test
	void answers503WithRetryAfterWhenTheRegistryIsDown() {
		assertThat(this.mvc.get().uri("/new-id")).hasStatusOk();
		this.registry.setDown(true);
		assertThat(this.mvc.get().uri("/new-id")).hasStatus(503)
			.hasHeader("Retry-After", "5")
			.hasContentType(MediaType.APPLICATION_PROBLEM_JSON)
			.bodyJson()
			.isEqualTo("{\"status\":503,\"title\":\"IDs temporarily unavailable\",\"instance\":\"/new-id\","
					+ "\"detail\":\"IDs are temporarily unavailable; retry in 5 s.\"}");
	}

}

package dev.crid.autoconfigure.endpoint;

import dev.crid.CridId;
import dev.crid.actuate.endpoint.CridEndpoint;
import dev.crid.actuate.endpoint.CridEndpoint.DecodedId;
import dev.crid.autoconfigure.CridAutoConfiguration;
import dev.crid.autoconfigure.registry.CridRegistryAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code GET /actuator/crid/{id}} reads an ID in decimal or in base32 and says which;
 * text that is an ID in both forms is read in the form {@code crid.id-format} chooses, or
 * the request names, and the answer says that it was ambiguous.
 */
class CridEndpointIdFormatTest {

	/** The shared vector: second 500, sequence 7. */
	private static final CridId VECTOR = CridId.of(2147483648007L);

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(CridRegistryAutoConfiguration.class, CridAutoConfiguration.class,
				CridEndpointAutoConfiguration.class))
		.withPropertyValues("crid.registry.type=memory", "management.endpoints.web.exposure.include=crid");

	@Test
	void decodesTheBase32FormAndSaysSo() {
		this.runner.run((context) -> {
			CridEndpoint endpoint = context.getBean(CridEndpoint.class);
			for (String text : new String[] { "00001YG000007", "0000-1yg0-0000-7", "1YG000007" }) {
				DecodedId decoded = endpoint.decode(text);
				assertThat(decoded.format()).as(text).isEqualTo("base32");
				assertThat(decoded.ambiguous()).as(text).isFalse();
				assertVector(decoded);
			}
		});
	}

	@Test
	void decodesALongDecimalIdAndSaysSo() {
		this.runner.withPropertyValues("crid.id-format=base32").run((context) -> {
			CridId id = CridId.of(Long.MAX_VALUE);
			DecodedId decoded = context.getBean(CridEndpoint.class).decode(id.toString());
			assertThat(decoded.format()).isEqualTo("decimal");
			assertThat(decoded.ambiguous()).isFalse();
			assertThat(decoded.id()).isEqualTo("9223372036854775807");
			assertThat(decoded.base32()).isEqualTo("7ZZZZZZZZZZZZ");
		});
	}

	@Test
	void readsTextValidInBothFormsInTheConfiguredOneAndSaysItWasAmbiguous() {
		// "2147483648007" is 13 digits: the vector in decimal, another ID in base32.
		this.runner.run((context) -> {
			DecodedId decoded = context.getBean(CridEndpoint.class).decode("2147483648007");
			assertThat(decoded.format()).isEqualTo("decimal");
			assertThat(decoded.ambiguous()).isTrue();
			assertVector(decoded);
		});
		this.runner.withPropertyValues("crid.id-format=base32").run((context) -> {
			DecodedId decoded = context.getBean(CridEndpoint.class).decode("2147483648007");
			assertThat(decoded.format()).isEqualTo("base32");
			assertThat(decoded.ambiguous()).isTrue();
			assertThat(decoded.id()).isEqualTo(Long.toString(CridId.parseBase32("2147483648007").value()));
			assertThat(decoded.base32()).isEqualTo("2147483648007");
		});
	}

	@Test
	void textThatIsTheSameIdInBothFormsIsNotAmbiguous() {
		this.runner.run((context) -> {
			DecodedId decoded = context.getBean(CridEndpoint.class).decode("7");
			assertThat(decoded.id()).isEqualTo("7");
			assertThat(decoded.format()).isEqualTo("decimal");
			assertThat(decoded.ambiguous()).isFalse();
		});
	}

	@Test
	void readsTheFormTheRequestNames() {
		this.runner.run((context) -> {
			CridEndpoint endpoint = context.getBean(CridEndpoint.class);
			DecodedId asBase32 = endpoint.decode("0000000000010", "BASE32");
			assertThat(asBase32.id()).isEqualTo("32");
			assertThat(asBase32.format()).isEqualTo("base32");
			assertThat(asBase32.ambiguous()).isTrue();
			assertThat(endpoint.decode("0000000000010", "decimal").id()).isEqualTo("10");
			assertThatExceptionOfType(InvalidEndpointRequestException.class)
				.isThrownBy(() -> endpoint.decode("00001YG000007", "decimal"))
				.satisfies((ex) -> assertThat(ex.getReason())
					.startsWith("Invalid crid ID \"00001YG000007\": expected a decimal"));
			assertThatExceptionOfType(InvalidEndpointRequestException.class)
				.isThrownBy(() -> endpoint.decode("1", "hex"))
				.satisfies((ex) -> assertThat(ex.getReason())
					.isEqualTo("Unknown ID format \"hex\": expected decimal or base32"));
		});
	}

	@Test
	void givesTheReasonForEachFormWhenTheTextIsAnIdInNeither() {
		this.runner.run((context) -> assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> context.getBean(CridEndpoint.class).decode("12U"))
			.satisfies((ex) -> assertThat(ex.getReason())
				.startsWith("Invalid crid ID \"12U\": it is neither decimal nor base32.")
				.contains("expected a decimal number", "it has 'U' at index 2")));
	}

	private static void assertVector(DecodedId decoded) {
		assertThat(decoded.id()).isEqualTo("2147483648007");
		assertThat(decoded.base32()).isEqualTo("00001YG000007");
		assertThat(decoded.timestamp()).hasToString("2026-01-01T00:08:20Z");
		assertThat(decoded.epochSeconds()).isEqualTo(500);
		assertThat(decoded.sequence()).isEqualTo(7);
	}

}

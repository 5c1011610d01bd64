package dev.crid.etcd;

import java.time.Duration;

import io.etcd.jetcd.Client;
import org.junit.jupiter.api.Test;

import dev.crid.InvalidConfigException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The builder's defaults and checks; no etcd is contacted.
 */
class EtcdRegistryBuilderTest {

	@Test
	void defaultsToThePrefixCridATwoSecondTimeoutAndADayOfRetention() {
		try (Client client = Client.builder().endpoints("http://127.0.0.1:1").build()) {
			EtcdRegistry registry = EtcdRegistry.builder(client).build();
			assertThat(registry.keyPrefix()).isEqualTo("crid/");
			assertThat(registry.timeout()).isEqualTo(Duration.ofSeconds(2));
			assertThat(registry.retention()).isEqualTo(Duration.ofDays(1));
			assertThat(registry).hasToString("EtcdRegistry[keyPrefix=crid/]");
		}
	}

	@Test
	void aZeroRetentionKeepsEveryKey() {
		try (Client client = Client.builder().endpoints("http://127.0.0.1:1").build()) {
			assertThat(EtcdRegistry.builder(client).retention(Duration.ZERO).build().retention()).isNull();
			assertThat(EtcdRegistry.builder(client).retention(null).build().retention()).isNull();
		}
	}

	@Test
	void reportsEveryViolatedRuleAtOnce() {
		try (Client client = Client.builder().endpoints("http://127.0.0.1:1").build()) {
			assertThatExceptionOfType(InvalidConfigException.class)
				.isThrownBy(() -> EtcdRegistry.builder(client)
					.keyPrefix("")
					.timeout(Duration.ZERO)
					.retention(Duration.ofMillis(10))
					.build())
				.satisfies((ex) -> assertThat(ex.violations()).extracting(InvalidConfigException.Violation::setting)
					.containsExactly("keyPrefix", "timeout", "retention"));
			assertThatExceptionOfType(InvalidConfigException.class)
				.isThrownBy(() -> EtcdRegistry.builder(client).keyPrefix("a\nb").timeout(Duration.ofDays(2)).build())
				.satisfies((ex) -> assertThat(ex.violations()).extracting(InvalidConfigException.Violation::setting)
					.containsExactly("keyPrefix", "timeout"));
		}
	}

	@Test
	void refusesAMissingClient() {
		assertThatExceptionOfType(InvalidConfigException.class).isThrownBy(() -> EtcdRegistry.builder(null).build())
			.satisfies((ex) -> assertThat(ex.violations()).extracting(InvalidConfigException.Violation::setting)
				.containsExactly("client"));
	}

}

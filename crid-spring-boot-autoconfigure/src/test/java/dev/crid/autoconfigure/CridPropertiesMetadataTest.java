package dev.crid.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.r2dbc.R2dbcRegistry;
import dev.crid.format.IdFormat;
import dev.crid.etcd.EtcdRegistry;
import dev.crid.jdbc.JdbcTemplateRegistry;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generated configuration metadata (what IDEs show) documents every property with the
 * defaults that crid-core and crid-jdbc actually use, and so does {@link CridProperties}
 * itself.
 */
class CridPropertiesMetadataTest {

	private static final Set<String> NO_DEFAULT = Set.of("crid.nodes", "crid.registry.etcd.endpoints",
			"crid.registry.etcd.username", "crid.registry.etcd.password");

	@Test
	void documentsEveryPropertyWithTheLibrarysDefault() throws IOException {
		Map<String, JsonNode> properties = cridProperties();
		assertThat(properties).containsOnlyKeys("crid.enabled", "crid.epoch", "crid.timestamp-bits",
				"crid.sequence-bits", "crid.block-size", "crid.threshold", "crid.allocation-timeout",
				"crid.max-clock-skew", "crid.runway", "crid.id-format", "crid.registry.type",
				"crid.registry.jdbc.table-name", "crid.registry.jdbc.initialize-schema",
				"crid.registry.jdbc.query-timeout", "crid.registry.jdbc.retention", "crid.registry.jdbc.dialect",
				"crid.registry.r2dbc.table-name", "crid.registry.r2dbc.initialize-schema",
				"crid.registry.etcd.endpoints", "crid.registry.etcd.key-prefix", "crid.registry.etcd.username",
				"crid.registry.etcd.password", "crid.registry.etcd.timeout", "crid.registry.etcd.retention",
				"crid.jackson.ids-as-strings", "crid.web.problem-details.enabled", "crid.web.retry-after",
				"crid.nodes");
		properties.forEach((name, property) -> {
			assertThat(property.path("description").asString()).as(name).hasSizeGreaterThan(20);
			// A map of named nodes has no default: each node's keys default to those of
			// crid.*; nor have the etcd cluster's endpoints and credentials.
			assertThat(property.has("defaultValue")).as(name + " default").isEqualTo(!NO_DEFAULT.contains(name));
		});
		assertThat(Instant.parse(properties.get("crid.epoch").get("defaultValue").asString()))
			.isEqualTo(CridLayout.DEFAULT_EPOCH);
		assertThat(properties.get("crid.timestamp-bits").get("defaultValue").asInt())
			.isEqualTo(CridLayout.DEFAULT_TIMESTAMP_BITS);
		assertThat(properties.get("crid.sequence-bits").get("defaultValue").asInt())
			.isEqualTo(CridLayout.DEFAULT_SEQUENCE_BITS);
		assertThat(properties.get("crid.block-size").get("defaultValue").asLong())
			.isEqualTo(CridNode.DEFAULT_BLOCK_SIZE);
		assertThat(properties.get("crid.threshold").get("defaultValue").asLong()).isEqualTo(CridNode.DEFAULT_THRESHOLD);
		assertThat(duration(properties, "crid.allocation-timeout")).isEqualTo(CridNode.DEFAULT_ALLOCATION_TIMEOUT);
		assertThat(properties.get("crid.registry.jdbc.table-name").get("defaultValue").asString())
			.isEqualTo(JdbcTemplateRegistry.DEFAULT_TABLE_NAME);
		assertThat(duration(properties, "crid.registry.jdbc.query-timeout"))
			.isEqualTo(JdbcTemplateRegistry.DEFAULT_QUERY_TIMEOUT);
		assertThat(duration(properties, "crid.max-clock-skew")).isEqualTo(CridNode.DEFAULT_MAX_CLOCK_SKEW);
		assertThat(duration(properties, "crid.runway")).isZero();
		assertThat(duration(properties, "crid.registry.jdbc.retention"))
			.isEqualTo(JdbcTemplateRegistry.DEFAULT_RETENTION);
		assertThat(properties.get("crid.registry.type").get("defaultValue").asString()).isEqualTo("auto");
		assertThat(properties.get("crid.id-format").get("defaultValue").asString()).isEqualTo("decimal");
		assertThat(properties.get("crid.registry.jdbc.dialect").get("defaultValue").asString()).isEqualTo("auto");
		assertThat(properties.get("crid.registry.jdbc.initialize-schema").get("defaultValue").asString())
			.isEqualTo("embedded");
		assertThat(properties.get("crid.registry.r2dbc.table-name").get("defaultValue").asString())
			.isEqualTo(R2dbcRegistry.DEFAULT_TABLE_NAME);
		assertThat(properties.get("crid.registry.etcd.key-prefix").get("defaultValue").asString())
			.isEqualTo(EtcdRegistry.DEFAULT_KEY_PREFIX);
		assertThat(duration(properties, "crid.registry.etcd.timeout")).isEqualTo(EtcdRegistry.DEFAULT_TIMEOUT);
		assertThat(duration(properties, "crid.registry.etcd.retention")).isEqualTo(EtcdRegistry.DEFAULT_RETENTION);
		assertThat(properties.get("crid.enabled").get("defaultValue").asBoolean()).isTrue();
		assertThat(properties.get("crid.jackson.ids-as-strings").get("defaultValue").asBoolean()).isTrue();
		assertThat(properties.get("crid.web.problem-details.enabled").get("defaultValue").asBoolean()).isTrue();
		assertThat(duration(properties, "crid.web.retry-after"))
			.isEqualTo(new CridProperties().getWeb().getRetryAfter());
	}

	@Test
	void propertiesStartAtTheLibrarysDefaults() {
		CridProperties properties = new CridProperties();
		assertThat(properties.isEnabled()).isTrue();
		assertThat(properties.getEpoch()).isEqualTo(CridLayout.DEFAULT_EPOCH);
		assertThat(properties.getTimestampBits()).isEqualTo(CridLayout.DEFAULT_TIMESTAMP_BITS);
		assertThat(properties.getSequenceBits()).isEqualTo(CridLayout.DEFAULT_SEQUENCE_BITS);
		assertThat(properties.getBlockSize()).isEqualTo(CridNode.DEFAULT_BLOCK_SIZE);
		assertThat(properties.getThreshold()).isEqualTo(CridNode.DEFAULT_THRESHOLD);
		assertThat(properties.getAllocationTimeout()).isEqualTo(CridNode.DEFAULT_ALLOCATION_TIMEOUT);
		assertThat(properties.getRegistry().getType()).isEqualTo(RegistryType.AUTO);
		assertThat(properties.getRegistry().getJdbc().getTableName())
			.isEqualTo(JdbcTemplateRegistry.DEFAULT_TABLE_NAME);
		assertThat(properties.getRegistry().getJdbc().getQueryTimeout())
			.isEqualTo(JdbcTemplateRegistry.DEFAULT_QUERY_TIMEOUT);
		assertThat(properties.getRegistry().getJdbc().getInitializeSchema())
			.isEqualTo(DatabaseInitializationMode.EMBEDDED);
		assertThat(properties.getMaxClockSkew()).isEqualTo(CridNode.DEFAULT_MAX_CLOCK_SKEW);
		assertThat(properties.getRegistry().getJdbc().getRetention()).isEqualTo(JdbcTemplateRegistry.DEFAULT_RETENTION);
		assertThat(properties.getRegistry().getEtcd().getKeyPrefix()).isEqualTo(EtcdRegistry.DEFAULT_KEY_PREFIX);
		assertThat(properties.getRegistry().getEtcd().getTimeout()).isEqualTo(EtcdRegistry.DEFAULT_TIMEOUT);
		assertThat(properties.getRegistry().getEtcd().getRetention()).isEqualTo(EtcdRegistry.DEFAULT_RETENTION);
		assertThat(properties.getRegistry().getEtcd().getEndpoints()).isEmpty();
		assertThat(properties.getJackson().isIdsAsStrings()).isTrue();
		assertThat(properties.getIdFormat()).isEqualTo(IdFormat.DECIMAL);
		assertThat(properties.getWeb().getProblemDetails().isEnabled()).isTrue();
		assertThat(properties.getWeb().getRetryAfter()).isEqualTo(Duration.ofSeconds(5));
	}

	private static Duration duration(Map<String, JsonNode> properties, String name) {
		return DurationStyle.detectAndParse(properties.get(name).get("defaultValue").asString());
	}

	private static Map<String, JsonNode> cridProperties() throws IOException {
		JsonMapper mapper = JsonMapper.builder().build();
		Map<String, JsonNode> properties = new HashMap<>();
		for (URL url : Collections.list(CridPropertiesMetadataTest.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				for (JsonNode property : mapper.readTree(in).path("properties")) {
					String name = property.get("name").asString();
					if (name.startsWith("crid.")) {
						properties.put(name, property);
					}
				}
			}
		}
		return properties;
	}

}

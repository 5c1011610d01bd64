package dev.crid.autoconfigure.registry;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.crid.autoconfigure.CridConfigurationException;
import dev.crid.autoconfigure.CridNodes;
import dev.crid.autoconfigure.RegistryProperties;
import dev.crid.autoconfigure.Setting;
import dev.crid.autoconfigure.Violation;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import org.jspecify.annotations.Nullable;

/**
 * The jetcd client that crid's etcd registries share, made from
 * {@code crid.registry.etcd.*} once they are checked, and closed with the application
 * context. The password goes to the client and nowhere else: no message, log line or
 * {@code toString()} holds it.
 */
final class EtcdClientHolder implements AutoCloseable {

	/** What stands for a secret wherever a value is shown, as Spring Boot shows it. */
	static final String MASK = "******";

	private final Client client;

	private EtcdClientHolder(Client client) {
		this.client = client;
	}

	/**
	 * Checks the settings, then makes the client; contacts nothing.
	 * @throws CridConfigurationException listing every setting that is wrong
	 */
	static EtcdClientHolder of(RegistryProperties.Etcd etcd) {
		List<Violation> violations = new ArrayList<>();
		List<URI> endpoints = endpoints(etcd.getEndpoints(), violations);
		String username = etcd.getUsername();
		String password = etcd.getPassword();
		if (isBlank(username) != isBlank(password)) {
			violations.add(new Violation(Setting.ETCD_CREDENTIALS, isBlank(username) ? MASK : username,
					isBlank(username) ? "must be set together: the password is set and the username is not"
							: "must be set together: the username is set and the password is not"));
		}
		if (!violations.isEmpty()) {
			throw new CridConfigurationException(CridNodes.DEFAULT_NODE, violations, null, null);
		}
		ClientBuilder builder = Client.builder().endpoints(endpoints);
		if (username != null && password != null && !isBlank(username)) {
			builder.user(ByteSequence.from(username, StandardCharsets.UTF_8))
				.password(ByteSequence.from(password, StandardCharsets.UTF_8));
		}
		return new EtcdClientHolder(builder.build());
	}

	private static List<URI> endpoints(List<String> configured, List<Violation> violations) {
		if (configured.isEmpty()) {
			violations.add(new Violation(Setting.ETCD_ENDPOINTS, "", "must name at least one member's client URL"));
			return List.of();
		}
		List<URI> endpoints = new ArrayList<>();
		for (String endpoint : configured) {
			String problem = problem(endpoint);
			if (problem != null) {
				violations.add(new Violation(Setting.ETCD_ENDPOINTS, shown(endpoint), problem));
			}
			else {
				endpoints.add(URI.create(endpoint.strip()));
			}
		}
		return endpoints;
	}

	/**
	 * Says what is wrong with an endpoint, or returns {@code null} if nothing is.
	 */
	private static @Nullable String problem(String endpoint) {
		URI uri;
		try {
			uri = new URI(endpoint.strip());
		}
		catch (URISyntaxException ex) {
			return "must be a URL such as http://etcd-1:2379, but " + ex.getReason().toLowerCase(Locale.ROOT);
		}
		if (uri.getRawUserInfo() != null) {
			return "must not hold credentials: set crid.registry.etcd.username and crid.registry.etcd.password";
		}
		if ("https".equalsIgnoreCase(uri.getScheme())) {
			return "must be an http URL: crid's client has no TLS settings";
		}
		if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0) {
			return "must be an http URL with a host and a port, such as http://etcd-1:2379";
		}
		return null;
	}

	/**
	 * An endpoint as a failure shows it: without the credentials it may hold.
	 */
	private static String shown(String endpoint) {
		int scheme = endpoint.indexOf("://");
		int authority = (scheme >= 0) ? scheme + 3 : 0;
		int end = endpoint.indexOf('/', authority);
		int at = endpoint.lastIndexOf('@', (end >= 0) ? end : endpoint.length());
		return (at >= authority) ? endpoint.substring(0, authority) + MASK + endpoint.substring(at) : endpoint;
	}

	private static boolean isBlank(@Nullable String value) {
		return value == null || value.isBlank();
	}

	/**
	 * Returns the client.
	 */
	Client client() {
		return this.client;
	}

	@Override
	public void close() {
		this.client.close();
	}

	@Override
	public String toString() {
		return "crid's etcd client";
	}

}

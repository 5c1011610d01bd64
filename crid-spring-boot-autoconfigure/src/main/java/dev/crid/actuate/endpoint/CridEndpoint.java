package dev.crid.actuate.endpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import dev.crid.CridId;
import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.CridStats;
import dev.crid.ParsedId;
import dev.crid.Registry;
import dev.crid.actuate.RegistryDescription;
import dev.crid.format.IdFormat;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The actuator endpoint {@code crid}: {@code GET /actuator/crid} shows every node's
 * layout, registry and statistics, by the node's name; {@code GET /actuator/crid/{id}}
 * decodes an ID, given in decimal or in base32, with the first node's layout (the default
 * node's) into its timestamp and sequence number, and {@code GET
 * /actuator/crid/{node}/{id}} with the named node's; the answer says which form it read.
 * Text that is valid in both forms (digits only, such as {@code 0000000000001}) is read
 * in the configured form ({@code crid.id-format}), unless the request names one
 * ({@code ?format=base32}); the answer says that it was ambiguous. Text that is an ID in
 * neither form, or an unknown node, is a bad request (400), with the reason.
 */
@Endpoint(id = "crid")
public class CridEndpoint {

	private final Map<String, CridNode> nodes;

	private final Map<String, Registry> registries;

	private final IdFormat idFormat;

	/**
	 * Creates the endpoint.
	 * @param nodes the nodes to show, by name, the default one first: it decodes the IDs
	 * of requests that name no node
	 * @param registries the registry of each node by name, where it is known
	 * @param idFormat the form to read text in that is valid in both
	 */
	public CridEndpoint(Map<String, CridNode> nodes, Map<String, Registry> registries, IdFormat idFormat) {
		if (nodes.isEmpty()) {
			throw new IllegalArgumentException("No node to show");
		}
		this.nodes = Collections.unmodifiableMap(new LinkedHashMap<>(nodes));
		this.registries = Map.copyOf(registries);
		this.idFormat = idFormat;
	}

	/**
	 * Describes every node.
	 * @return each node's layout, registry, settings and statistics, by the node's name
	 */
	@ReadOperation
	public NodesDescriptor crid() {
		Map<String, NodeDescriptor> described = new LinkedHashMap<>();
		this.nodes.forEach((name, node) -> described.put(name, describe(node, this.registries.get(name))));
		return new NodesDescriptor(described);
	}

	private static NodeDescriptor describe(CridNode node, @Nullable Registry registry) {
		CridLayout layout = node.layout();
		return new NodeDescriptor(
				new LayoutDescriptor(layout.epoch(), layout.timestampBits(), layout.sequenceBits(), layout.lastSecond(),
						layout.maxSequence()),
				RegistryDescription.of(registry), node.blockSize(), node.threshold(), node.allocationTimeout(),
				node.maxClockSkew(), node.runway(), node.isClosed(), node.stats());
	}

	/**
	 * Decodes an ID, in decimal or in base32, with the default node's layout; text valid
	 * in both forms is read in the configured one.
	 * @param id the ID, in decimal or in base32
	 * @return its timestamp and sequence number, and the form it was read in
	 * @throws InvalidEndpointRequestException if the text is an ID in neither form
	 */
	public DecodedId decode(String id) {
		return decode(id, null);
	}

	/**
	 * Decodes an ID, in decimal or in base32, with the default node's layout.
	 * @param id the ID, in decimal or in base32
	 * @param format the form to read it in, {@code decimal} or {@code base32} (any case);
	 * {@code null} for the form it is valid in, and for text valid in both, the
	 * configured one
	 * @return its timestamp and sequence number, and the form it was read in
	 * @throws InvalidEndpointRequestException if the text is no ID in the form asked for,
	 * or in neither form, or if the form is unknown
	 */
	@ReadOperation
	public DecodedId decode(@Selector String id, @Nullable String format) {
		return decode(this.nodes.values().iterator().next(), id, format);
	}

	/**
	 * Decodes an ID, in decimal or in base32, with the layout of the node of the given
	 * name.
	 * @param node the node's name
	 * @param id the ID, in decimal or in base32
	 * @param format the form to read it in, as for {@link #decode(String, String)}
	 * @return its timestamp and sequence number, and the form it was read in
	 * @throws InvalidEndpointRequestException if no node has that name, if the text is no
	 * ID in the form asked for, or in neither form, or if the form is unknown
	 */
	@ReadOperation
	public DecodedId decode(@Selector String node, @Selector String id, @Nullable String format) {
		CridNode named = this.nodes.get(node);
		if (named == null) {
			throw invalidRequest("No crid node is named '" + node + "'; the nodes are " + this.nodes.keySet(), null);
		}
		return decode(named, id, format);
	}

	private DecodedId decode(CridNode node, String id, @Nullable String format) {
		IdReading reading = IdReading.of(id);
		IdFormat chosen = (format != null) ? formatNamed(format) : reading.preferring(this.idFormat);
		CridId parsed;
		ParsedId parts;
		try {
			parsed = reading.in(chosen);
			parts = node.parser().parse(parsed);
		}
		catch (IllegalArgumentException ex) {
			throw invalidRequest(String.valueOf(ex.getMessage()), ex);
		}
		CridLayout layout = node.layout();
		return new DecodedId(parsed.toString(), parsed.toBase32(), chosen.lowerCaseName(), reading.isAmbiguous(),
				parts.timestamp(), layout.timestampOf(parsed.value()), parts.sequence());
	}

	private static IdFormat formatNamed(String format) {
		for (IdFormat candidate : IdFormat.values()) {
			if (candidate.lowerCaseName().equals(format.toLowerCase(Locale.ROOT))) {
				return candidate;
			}
		}
		throw invalidRequest("Unknown ID format \"" + format + "\": expected decimal or base32", null);
	}

	private static InvalidEndpointRequestException invalidRequest(String reason, @Nullable Throwable cause) {
		return new InvalidEndpointRequestException(reason, reason, cause);
	}

	/**
	 * The endpoint's description of every node.
	 *
	 * @param nodes each node by name, the default node first
	 */
	public record NodesDescriptor(Map<String, NodeDescriptor> nodes) {
	}

	/**
	 * The endpoint's description of a node.
	 *
	 * @param layout how its IDs are put together
	 * @param registry the kind of registry and, for a database, its dialect and table
	 * @param blockSize sequence numbers reserved per registry call
	 * @param threshold IDs left in a block below which the next is reserved
	 * @param allocationTimeout how long a caller waits for the registry at most
	 * @param maxClockSkew how far the node's clock may be from the registry's
	 * @param runway how long the IDs it keeps in stock should last (zero: no stock beyond
	 * the next block); the stats tell how long those it holds do
	 * @param closed whether the node is closed
	 * @param stats the node's statistics
	 */
	public record NodeDescriptor(LayoutDescriptor layout, Map<String, Object> registry, long blockSize, long threshold,
			Duration allocationTimeout, Duration maxClockSkew, Duration runway, boolean closed, CridStats stats) {
	}

	/**
	 * The endpoint's description of a layout.
	 *
	 * @param epoch the instant timestamps count from
	 * @param timestampBits bits of the timestamp
	 * @param sequenceBits bits of the sequence number
	 * @param lastSecond the last second the layout can encode
	 * @param maxSequence the largest sequence number per second
	 */
	public record LayoutDescriptor(Instant epoch, int timestampBits, int sequenceBits, Instant lastSecond,
			long maxSequence) {
	}

	/**
	 * An ID taken apart.
	 *
	 * @param id the ID, in decimal
	 * @param base32 the ID in base32
	 * @param format the form the text was read in: {@code decimal} or {@code base32}
	 * @param ambiguous whether the text is a different ID in the other form: it was then
	 * read in the form the request named, else in the configured one
	 * @param timestamp the second its block was reserved in
	 * @param epochSeconds the same second, counted from the layout's epoch as stored in
	 * the ID
	 * @param sequence its sequence number within that second
	 */
	public record DecodedId(String id, String base32, String format, boolean ambiguous, Instant timestamp,
			long epochSeconds, long sequence) {
	}

}

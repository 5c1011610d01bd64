package dev.crid.autoconfigure.endpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.crid.CridId;
import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.CridStats;
import dev.crid.ParsedId;
import dev.crid.Registry;
import dev.crid.autoconfigure.CridNodes;
import dev.crid.autoconfigure.registry.RegistryInspector;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The actuator endpoint {@code crid}: {@code GET /actuator/crid} shows every node's layout, registry and
 * statistics, by the node's name; {@code GET /actuator/crid/{id}} decodes an ID with the default node's
 * layout into its timestamp and sequence number, and {@code GET /actuator/crid/{node}/{id}} with the
 * named node's. An ID that is not a non-negative decimal {@code long}, or an unknown node, is a bad request
 * (400), with the reason.
 */
@Endpoint(id = "crid")
public class CridEndpoint {

	private final CridNodes nodes;

	/**
	 * Creates the endpoint.
	 * @param nodes the nodes to show, by name
	 */
	public CridEndpoint(CridNodes nodes) {
		this.nodes = nodes;
	}

	/**
	 * Describes every node.
	 * @return each node's layout, registry, settings and statistics, by the node's name
	 */
	@ReadOperation
	public NodesDescriptor crid() {
		Map<String, NodeDescriptor> described = new LinkedHashMap<>();
		this.nodes.all().forEach((name, node) -> described.put(name, describe(node, this.nodes.registry(name))));
		return new NodesDescriptor(described);
	}

	private static NodeDescriptor describe(CridNode node, @Nullable Registry registry) {
		CridLayout layout = node.layout();
		return new NodeDescriptor(
				new LayoutDescriptor(layout.epoch(), layout.timestampBits(), layout.sequenceBits(),
						layout.lastSecond(), layout.maxSequence()),
				RegistryInspector.of(registry).describe(true), node.blockSize(), node.threshold(),
				node.allocationTimeout(), node.maxClockSkew(), node.isClosed(), node.stats());
	}

	/**
	 * Decodes an ID with the default node's layout.
	 * @param id the ID, in decimal
	 * @return its timestamp and sequence number
	 * @throws InvalidEndpointRequestException if the ID is not a non-negative decimal {@code long}
	 */
	@ReadOperation
	public DecodedId decode(@Selector String id) {
		return decode(this.nodes.get(CridNodes.DEFAULT_NODE), id);
	}

	/**
	 * Decodes an ID with the layout of the node of the given name.
	 * @param node the node's name
	 * @param id the ID, in decimal
	 * @return its timestamp and sequence number
	 * @throws InvalidEndpointRequestException if no node has that name, or the ID is not a non-negative
	 * decimal {@code long}
	 */
	@ReadOperation
	public DecodedId decode(@Selector String node, @Selector String id) {
		CridNode named;
		try {
			named = this.nodes.get(node);
		}
		catch (IllegalArgumentException ex) {
			String reason = String.valueOf(ex.getMessage());
			throw new InvalidEndpointRequestException(reason, reason, ex);
		}
		return decode(named, id);
	}

	private static DecodedId decode(CridNode node, String id) {
		CridId parsed;
		ParsedId parts;
		try {
			parsed = CridId.parse(id);
			parts = node.parser().parse(parsed);
		}
		catch (IllegalArgumentException ex) {
			String reason = String.valueOf(ex.getMessage());
			throw new InvalidEndpointRequestException(reason, reason, ex);
		}
		CridLayout layout = node.layout();
		return new DecodedId(parsed.toString(), parts.timestamp(), layout.timestampOf(parsed.value()),
				parts.sequence());
	}

	/**
	 * The endpoint's description of every node.
	 *
	 * @param nodes each node by name, the default node ({@value CridNodes#DEFAULT_NODE}) first
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
	 * @param closed whether the node is closed
	 * @param stats the node's statistics
	 */
	public record NodeDescriptor(LayoutDescriptor layout, Map<String, Object> registry, long blockSize,
			long threshold, Duration allocationTimeout, Duration maxClockSkew, boolean closed, CridStats stats) {
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
	 * @param timestamp the second its block was reserved in
	 * @param epochSeconds the same second, counted from the layout's epoch as stored in the ID
	 * @param sequence its sequence number within that second
	 */
	public record DecodedId(String id, Instant timestamp, long epochSeconds, long sequence) {
	}

}

package dev.crid.autoconfigure.endpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import dev.crid.CridId;
import dev.crid.CridLayout;
import dev.crid.CridNode;
import dev.crid.CridStats;
import dev.crid.ParsedId;
import dev.crid.Registry;
import dev.crid.autoconfigure.registry.RegistryInspector;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The actuator endpoint {@code crid}: {@code GET /actuator/crid} shows the node's layout, registry and
 * statistics; {@code GET /actuator/crid/{id}} decodes an ID into its timestamp and sequence number. An
 * ID that is not a non-negative decimal {@code long} is a bad request (400), with the reason.
 */
@Endpoint(id = "crid")
public class CridEndpoint {

	private final CridNode node;

	private final RegistryInspector registry;

	/**
	 * Creates the endpoint.
	 * @param node the node to show
	 * @param registry the registry the node reserves its blocks in, or {@code null} if unknown
	 */
	public CridEndpoint(CridNode node, @Nullable Registry registry) {
		this.node = node;
		this.registry = RegistryInspector.of(registry);
	}

	/**
	 * Describes the node.
	 * @return its layout, registry, settings and statistics
	 */
	@ReadOperation
	public NodeDescriptor crid() {
		CridLayout layout = this.node.layout();
		return new NodeDescriptor(
				new LayoutDescriptor(layout.epoch(), layout.timestampBits(), layout.sequenceBits(),
						layout.lastSecond(), layout.maxSequence()),
				this.registry.describe(true), this.node.blockSize(), this.node.threshold(),
				this.node.allocationTimeout(), this.node.maxClockSkew(), this.node.isClosed(), this.node.stats());
	}

	/**
	 * Decodes an ID with the node's layout.
	 * @param id the ID, in decimal
	 * @return its timestamp and sequence number
	 * @throws InvalidEndpointRequestException if the ID is not a non-negative decimal {@code long}
	 */
	@ReadOperation
	public DecodedId decode(@Selector String id) {
		CridId parsed;
		ParsedId parts;
		try {
			parsed = CridId.parse(id);
			parts = this.node.parser().parse(parsed);
		}
		catch (IllegalArgumentException ex) {
			String reason = String.valueOf(ex.getMessage());
			throw new InvalidEndpointRequestException(reason, reason, ex);
		}
		CridLayout layout = this.node.layout();
		return new DecodedId(parsed.toString(), parts.timestamp(), layout.timestampOf(parsed.value()),
				parts.sequence());
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

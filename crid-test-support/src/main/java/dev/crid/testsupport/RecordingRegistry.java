package dev.crid.testsupport;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.crid.CridLayout;
import dev.crid.Registry;

/**
 * A registry that passes every call on to another and records each block it hands out,
 * and when: so that a test can check every block against all others of its second, not
 * only the IDs its threads happened to take.
 */
public final class RecordingRegistry implements Registry {

	private final Registry registry;

	private final Queue<Block> blocks = new ConcurrentLinkedQueue<>();

	/**
	 * Records what the registry hands out.
	 * @param registry the registry every call goes to
	 */
	public RecordingRegistry(Registry registry) {
		this.registry = registry;
	}

	@Override
	public long allocate(long timestamp, long blockSize) {
		return reserve(timestamp, blockSize).start();
	}

	@Override
	public Reservation reserve(long timestamp, long blockSize) {
		long started = System.nanoTime();
		Reservation reservation = this.registry.reserve(timestamp, blockSize);
		this.blocks.add(new Block(timestamp, reservation.start(), blockSize, started, System.nanoTime()));
		return reservation;
	}

	@Override
	public void checkLayout(CridLayout layout) {
		this.registry.checkLayout(layout);
	}

	@Override
	public String kind() {
		return this.registry.kind();
	}

	@Override
	public Map<String, Object> details() {
		return this.registry.details();
	}

	@Override
	public boolean check() {
		return this.registry.check();
	}

	@Override
	public boolean answersFromMemory() {
		return this.registry.answersFromMemory();
	}

	/**
	 * Returns the blocks handed out so far.
	 * @return the blocks, in the order they were handed out
	 */
	public List<Block> blocks() {
		return new ArrayList<>(this.blocks);
	}

	/**
	 * Counts the blocks that overlap a block of the same second with a lower start (or
	 * the same start), among every block the registries handed out.
	 * @param registries the registries
	 * @return the overlapping blocks
	 */
	public static long overlaps(Collection<RecordingRegistry> registries) {
		Map<Long, List<Block>> bySecond = new TreeMap<>();
		for (RecordingRegistry registry : registries) {
			for (Block block : registry.blocks) {
				bySecond.computeIfAbsent(block.timestamp(), (timestamp) -> new ArrayList<>()).add(block);
			}
		}
		long overlaps = 0;
		for (List<Block> blocks : bySecond.values()) {
			blocks.sort(Comparator.comparingLong(Block::start));
			long end = Long.MIN_VALUE;
			for (Block block : blocks) {
				if (block.start() < end) {
					overlaps++;
				}
				end = Math.max(end, block.start() + block.size());
			}
		}
		return overlaps;
	}

	/**
	 * One block handed out.
	 *
	 * @param timestamp its second
	 * @param start its first sequence number
	 * @param size how many sequence numbers it holds
	 * @param startedNanos when the reservation was asked for ({@link System#nanoTime()})
	 * @param reservedNanos when it returned
	 */
	public record Block(long timestamp, long start, long size, long startedNanos, long reservedNanos) {
	}

}

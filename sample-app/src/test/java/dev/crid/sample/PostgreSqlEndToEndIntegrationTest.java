package dev.crid.sample;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances of the sample application on the {@code postgres} profile, sharing one
 * PostgreSQL database: the same crid registry table and the same order tables, in a
 * schema of this test's own. The end-to-end checks run against the first instance; both
 * together place orders concurrently.
 */
class PostgreSqlEndToEndIntegrationTest extends AbstractEndToEndIntegrationTest {

	private static final int THREADS_PER_INSTANCE = 3;

	private static final int ORDERS_PER_THREAD = 25;

	private static PostgreSqlSchema schema;

	private static RunningSampleApp first;

	private static RunningSampleApp second;

	@BeforeAll
	static void startTwoInstances() {
		schema = PostgreSqlSchema.create();
		Map<String, Object> shared = schema.applicationProperties();
		// Small blocks send both instances back to the registry every few orders, within
		// the same seconds.
		shared.put("crid.block-size", "20");
		shared.put("crid.threshold", "10");
		Map<String, Object> creator = new HashMap<>(shared);
		creator.put("spring.jpa.hibernate.ddl-auto", "create-drop");
		first = RunningSampleApp.start(creator);
		Map<String, Object> follower = new HashMap<>(shared);
		follower.put("spring.jpa.hibernate.ddl-auto", "validate");
		second = RunningSampleApp.start(follower);
	}

	@AfterAll
	static void stopInstances() {
		try {
			if (second != null) {
				second.close();
			}
		}
		finally {
			try {
				if (first != null) {
					first.close();
				}
			}
			finally {
				if (schema != null) {
					schema.close();
				}
			}
		}
	}

	@Override
	protected SampleApi api() {
		return first.api();
	}

	@Override
	protected String expectedDialect() {
		return "postgresql";
	}

	@Test
	void twoInstancesPlacingOrdersConcurrentlyNeverIssueTheSameId() throws Exception {
		List<RunningSampleApp> instances = List.of(first, second);
		ExecutorService threads = Executors.newFixedThreadPool(instances.size() * THREADS_PER_INSTANCE);
		CountDownLatch go = new CountDownLatch(1);
		List<Future<List<Issued>>> results = new ArrayList<>();
		try {
			for (int instance = 0; instance < instances.size(); instance++) {
				int number = instance;
				SampleApi api = instances.get(instance).api();
				for (int thread = 0; thread < THREADS_PER_INSTANCE; thread++) {
					results.add(threads.submit(() -> placeOrders(number, api, go)));
				}
			}
			go.countDown();
			List<Issued> issued = new ArrayList<>();
			for (Future<List<Issued>> result : results) {
				issued.addAll(result.get(90, TimeUnit.SECONDS));
			}

			List<Long> orderIds = ids(issued, Kind.ORDER);
			List<Long> itemIds = ids(issued, Kind.ITEM);
			assertThat(orderIds).hasSize(instances.size() * THREADS_PER_INSTANCE * ORDERS_PER_THREAD);
			List<Long> everyId = new ArrayList<>(issued.stream().map(Issued::id).toList());
			for (RunningSampleApp instance : instances) {
				instance.api().get("/events").json().forEach((event) -> everyId.add(id(event)));
			}
			assertThat(everyId).doesNotHaveDuplicates();
			assertThat(schema.jdbc().queryForList("SELECT id FROM " + schema.name() + ".orders", Long.class))
				.containsAll(orderIds);
			assertThat(schema.jdbc().queryForList("SELECT id FROM " + schema.name() + ".line_items", Long.class))
				.containsAll(itemIds);
			assertThat(secondsServedByBothInstances(issued))
				.as("seconds in which both instances issued IDs, so shared the registry's row for that second")
				.isNotEmpty();
		}
		finally {
			threads.shutdownNow();
		}
	}

	private static List<Issued> placeOrders(int instance, SampleApi api, CountDownLatch go) throws Exception {
		go.await();
		List<Issued> issued = new ArrayList<>();
		for (int i = 0; i < ORDERS_PER_THREAD; i++) {
			JsonNode order = api.createOrder("customer-" + instance, "widget", "gadget", "gizmo");
			issued.add(new Issued(instance, Kind.ORDER, id(order)));
			order.get("items").forEach((item) -> issued.add(new Issued(instance, Kind.ITEM, id(item))));
		}
		return issued;
	}

	private static long id(JsonNode node) {
		return Long.parseLong(node.get("id").stringValue());
	}

	private static List<Long> ids(List<Issued> issued, Kind kind) {
		return issued.stream().filter((id) -> id.kind() == kind).map(Issued::id).toList();
	}

	private static Set<Long> secondsServedByBothInstances(List<Issued> issued) {
		Map<Long, Set<Integer>> instancesBySecond = new HashMap<>();
		for (Issued id : issued) {
			instancesBySecond.computeIfAbsent(id.id() >>> 32, (second) -> new HashSet<>()).add(id.instance());
		}
		Set<Long> shared = new HashSet<>(instancesBySecond.keySet());
		shared.removeIf((second) -> instancesBySecond.get(second).size() < 2);
		return shared;
	}

	private enum Kind {

		ORDER, ITEM

	}

	private record Issued(int instance, Kind kind, long id) {
	}

}

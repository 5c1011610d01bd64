package dev.crid.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A loopback TCP proxy that puts network faults between the code under test and a real
 * database: it forwards bytes both ways until told to cut every connection, refuse new
 * ones, black-hole traffic (as a partition that drops packets does) or add latency. Use
 * {@link #jdbcUrl()} instead of the database's URL.
 *
 * <pre class="code">
 * try (FaultProxy proxy = FaultProxy.inFrontOf(TestDatabase.POSTGRESQL)) {
 *     // point a pool at proxy.jdbcUrl(), then:
 *     proxy.cut();      // every connection is closed, new ones are refused
 *     proxy.heal();     // traffic flows again
 * }</pre>
 *
 * <p>
 * Thread-safe. Its threads are daemons named {@code fault-proxy-*}; {@link #close()}
 * stops them.
 */
public final class FaultProxy implements AutoCloseable {

	private static final AtomicInteger threadNumbers = new AtomicInteger();

	private final InetSocketAddress target;

	private final String jdbcUrl;

	private final int port;

	private final Set<Link> links = ConcurrentHashMap.newKeySet();

	private volatile ServerSocket server;

	private volatile boolean blackHoled;

	private volatile long latencyNanos;

	private volatile boolean closed;

	private FaultProxy(String jdbcUrl, InetSocketAddress target) throws IOException {
		this.target = target;
		this.server = listen(0);
		this.port = this.server.getLocalPort();
		this.jdbcUrl = jdbcUrl.replace("//" + target.getHostString() + ":" + target.getPort() + "/",
				"//127.0.0.1:" + this.port + "/");
		startAccepting(this.server);
	}

	/**
	 * Starts a proxy in front of a test database, found as
	 * {@link TestDatabase#endpoint()} finds it.
	 * @param database the database
	 * @return the proxy, forwarding
	 */
	public static FaultProxy inFrontOf(TestDatabase database) {
		String url = database.endpoint().url();
		URI uri = URI.create(url.substring("jdbc:".length()));
		try {
			return new FaultProxy(url, new InetSocketAddress(uri.getHost(), uri.getPort()));
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not start a proxy in front of " + url, ex);
		}
	}

	/**
	 * Starts a proxy in front of any server at 127.0.0.1 (a database's streaming
	 * replication, say).
	 * @param port the server's port
	 * @return the proxy, forwarding; its {@link #jdbcUrl()} is a PostgreSQL URL of the
	 * proxy
	 */
	public static FaultProxy inFrontOf(int port) {
		try {
			return new FaultProxy("jdbc:postgresql://127.0.0.1:" + port + "/",
					new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not start a proxy in front of port " + port, ex);
		}
	}

	/**
	 * Returns the database's JDBC URL with the proxy's address in place of the
	 * database's.
	 * @return the URL to connect through
	 */
	public String jdbcUrl() {
		return this.jdbcUrl;
	}

	/**
	 * Returns the port the proxy listens on, at 127.0.0.1.
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Closes every open connection and refuses new ones, as a database that went down
	 * does.
	 */
	public synchronized void cut() {
		refuse();
		this.links.forEach(Link::close);
	}

	/** Refuses new connections and leaves open ones alone. */
	public synchronized void refuse() {
		ServerSocket current = this.server;
		this.server = null;
		closeQuietly(current);
	}

	/**
	 * Stops forwarding in both directions and accepts new connections without ever
	 * answering them, as a network partition that drops packets does: nobody learns
	 * anything until a timeout.
	 */
	public synchronized void blackHole() {
		this.blackHoled = true;
	}

	/**
	 * Delays every chunk of bytes forwarded by the given latency, in each direction.
	 * @param latency the delay, zero for none
	 */
	public void latency(Duration latency) {
		this.latencyNanos = latency.toNanos();
	}

	/**
	 * Forwards again, accepting new connections: ends a cut, a refusal or a black hole.
	 */
	public synchronized void heal() {
		this.blackHoled = false;
		if (this.server == null && !this.closed) {
			this.server = listenAgain();
			startAccepting(this.server);
		}
	}

	/**
	 * Listens on the proxy's port again. A socket closed while its thread waits in
	 * {@code accept()} lets go of the port only once that thread has left, so right after
	 * a cut the port may still be taken for a moment.
	 */
	private ServerSocket listenAgain() {
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		while (true) {
			try {
				return listen(this.port);
			}
			catch (IOException ex) {
				if (System.nanoTime() - deadline > 0) {
					throw new IllegalStateException("Could not listen on port " + this.port + " again", ex);
				}
				LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
			}
		}
	}

	/**
	 * Returns how many connections are open through the proxy.
	 * @return the open connections
	 */
	public int openConnections() {
		return this.links.size();
	}

	@Override
	public synchronized void close() {
		this.closed = true;
		refuse();
		this.links.forEach(Link::close);
	}

	private static ServerSocket listen(int port) throws IOException {
		ServerSocket socket = new ServerSocket();
		socket.setReuseAddress(true);
		socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
		return socket;
	}

	private void startAccepting(ServerSocket socket) {
		daemon("accept", () -> {
			while (!socket.isClosed()) {
				try {
					Socket client = socket.accept();
					daemon("connect", () -> connect(socket, client));
				}
				catch (IOException ex) {
					return;
				}
			}
		});
	}

	private void connect(ServerSocket acceptedBy, Socket client) {
		while (this.blackHoled && !client.isClosed() && !this.closed) {
			LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
		}
		Socket upstream = new Socket();
		try {
			upstream.connect(this.target, 5_000);
			client.setTcpNoDelay(true);
			upstream.setTcpNoDelay(true);
		}
		catch (IOException ex) {
			closeQuietly(client);
			closeQuietly(upstream);
			return;
		}
		Link link = new Link(client, upstream);
		this.links.add(link);
		if (this.server != acceptedBy) {
			// A cut or a refusal came while this connection was being made: it closed the
			// links there were, and this one was not among them yet.
			link.close();
			this.links.remove(link);
			return;
		}
		daemon("up", () -> pump(link, client, upstream));
		daemon("down", () -> pump(link, upstream, client));
	}

	private void pump(Link link, Socket from, Socket to) {
		byte[] buffer = new byte[16 * 1024];
		try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
			for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
				while (this.blackHoled && !link.closed) {
					LockSupport.parkNanos(Duration.ofMillis(10).toNanos());
				}
				long latency = this.latencyNanos;
				if (latency > 0) {
					LockSupport.parkNanos(latency);
				}
				out.write(buffer, 0, read);
				out.flush();
			}
		}
		catch (SocketException ex) {
			// Closed by a cut or by either side.
		}
		catch (IOException ex) {
			// The link is going away either way.
		}
		finally {
			link.close();
			this.links.remove(link);
		}
	}

	private static void daemon(String name, Runnable task) {
		Thread thread = new Thread(task, "fault-proxy-" + name + "-" + threadNumbers.incrementAndGet());
		thread.setDaemon(true);
		thread.start();
	}

	private static void closeQuietly(java.io.Closeable closeable) {
		if (closeable == null) {
			return;
		}
		try {
			closeable.close();
		}
		catch (IOException ex) {
			// Nothing more to do.
		}
	}

	/** One proxied connection: the client's socket and the database's. */
	private static final class Link {

		private final Socket client;

		private final Socket upstream;

		private volatile boolean closed;

		Link(Socket client, Socket upstream) {
			this.client = client;
			this.upstream = upstream;
		}

		void close() {
			this.closed = true;
			closeQuietly(this.client);
			closeQuietly(this.upstream);
		}

	}

}

package dev.crid.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the proxy's faults do to connections, on a loopback echo server.
 */
class FaultProxyTest {

	@Test
	void aCutAlsoClosesAConnectionThatWasBeingMadeWhenItCame() throws Exception {
		try (ServerSocket echo = echoServer(); FaultProxy proxy = FaultProxy.inFrontOf(echo.getLocalPort())) {
			// The black hole holds the accepted connection before it reaches the server,
			// so the cut comes while it is being made.
			proxy.blackHole();
			try (Socket client = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
				client.setSoTimeout(5_000);
				// Accepted: the proxy has started the thread that makes the connection.
				await().atMost(Duration.ofSeconds(5))
					.until(() -> Thread.getAllStackTraces()
						.keySet()
						.stream()
						.anyMatch((thread) -> thread.getName().startsWith("fault-proxy-connect-")));
				proxy.cut();
				proxy.heal();
				OutputStream out = client.getOutputStream();
				InputStream in = client.getInputStream();
				int read;
				try {
					out.write(42);
					out.flush();
					read = in.read();
				}
				catch (SocketException ex) {
					read = -1;
				}
				assertThat(read).as("what came back through a connection made across the cut").isEqualTo(-1);
			}
			try (Socket after = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
				after.setSoTimeout(5_000);
				after.getOutputStream().write(7);
				assertThat(after.getInputStream().read()).as("a connection made after the heal").isEqualTo(7);
			}
		}
	}

	private static ServerSocket echoServer() throws IOException {
		ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(() -> {
			while (!server.isClosed()) {
				try {
					Socket socket = server.accept();
					Thread echo = new Thread(() -> {
						try (socket;
								InputStream in = socket.getInputStream();
								OutputStream out = socket.getOutputStream()) {
							for (int b = in.read(); b >= 0; b = in.read()) {
								out.write(b);
								out.flush();
							}
						}
						catch (IOException ex) {
							// The test is over with this connection.
						}
					});
					echo.setDaemon(true);
					echo.start();
				}
				catch (IOException ex) {
					return;
				}
			}
		});
		acceptor.setDaemon(true);
		acceptor.start();
		return server;
	}

}

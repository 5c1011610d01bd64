package dev.crid.sample.web;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Bounds the size of a request body: an order is a few kilobytes, so anything above
 * {@value #MAX_BYTES} bytes is answered with 413 Content Too Large. A request that
 * announces a larger {@code Content-Length} is refused before its body is read; one sent
 * in chunks fails as soon as it passes the bound (see {@link ApiProblems}). Either way
 * the body is never read whole.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RequestSizeLimit extends OncePerRequestFilter {

	/** The largest request body accepted, in bytes. */
	public static final int MAX_BYTES = 64 * 1024;

	private final JsonMapper json;

	RequestSizeLimit(JsonMapper json) {
		this.json = json;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() > MAX_BYTES) {
			refuse(request, response);
			return;
		}
		chain.doFilter(new Bounded(request), response);
	}

	private void refuse(HttpServletRequest request, HttpServletResponse response) throws IOException {
		Map<String, Object> problem = new LinkedHashMap<>();
		problem.put("type", "about:blank");
		problem.put("title", HttpStatus.CONTENT_TOO_LARGE.getReasonPhrase());
		problem.put("status", HttpStatus.CONTENT_TOO_LARGE.value());
		problem.put("detail", TooLargeException.DETAIL);
		problem.put("instance", request.getRequestURI());
		byte[] body = this.json.writeValueAsBytes(problem);
		response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setContentLength(body.length);
		// The unread body is not worth keeping the connection for.
		response.setHeader("Connection", "close");
		response.getOutputStream().write(body);
		// Send the answer now: the server may go on to read (and drop) part of the body
		// before it closes.
		response.flushBuffer();
	}

	/**
	 * Thrown while a body without a {@code Content-Length} is read, as soon as it passes
	 * the bound.
	 */
	static final class TooLargeException extends IOException {

		static final String DETAIL = "The request body is larger than " + MAX_BYTES + " bytes";

		private static final long serialVersionUID = 1L;

		TooLargeException() {
			super(DETAIL);
		}

	}

	/**
	 * A request whose body stream fails once more than {@value #MAX_BYTES} bytes have
	 * been read.
	 */
	private static final class Bounded extends HttpServletRequestWrapper {

		Bounded(HttpServletRequest request) {
			super(request);
		}

		@Override
		public ServletInputStream getInputStream() throws IOException {
			ServletInputStream in = super.getInputStream();
			return new ServletInputStream() {

				private long read;

				@Override
				public int read() throws IOException {
					int b = in.read();
					if (b >= 0) {
						count(1);
					}
					return b;
				}

				@Override
				public int read(byte[] buffer, int offset, int length) throws IOException {
					int n = in.read(buffer, offset, length);
					if (n > 0) {
						count(n);
					}
					return n;
				}

				private void count(int n) throws TooLargeException {
					this.read += n;
					if (this.read > MAX_BYTES) {
						throw new TooLargeException();
					}
				}

				@Override
				public boolean isFinished() {
					return in.isFinished();
				}

				@Override
				public boolean isReady() {
					return in.isReady();
				}

				@Override
				public void setReadListener(ReadListener listener) {
					in.setReadListener(listener);
				}

			};
		}

	}

}

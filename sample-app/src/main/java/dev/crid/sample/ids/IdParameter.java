package dev.crid.sample.ids;

import dev.crid.CridId;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * Reads a crid ID from a request path, answering 400 with crid's own message when it is malformed.
 */
public final class IdParameter {

	private IdParameter() {
	}

	/**
	 * Parses an ID given in a request.
	 * @param text the ID in decimal
	 * @return the ID
	 * @throws ResponseStatusException with status 400 if the text is not a non-negative decimal
	 * {@code long}
	 */
	public static CridId parse(String text) {
		try {
			return CridId.parse(text);
		}
		catch (IllegalArgumentException ex) {
			throw new ResponseStatusException(HttpStatus.BAD_REQUEST, ex.getMessage(), ex);
		}
	}

}

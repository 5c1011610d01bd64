package dev.crid;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link CridId}.
 */
class CridIdTest {

	@Test
	void ofKeepsTheValueAndPrintsDecimal() {
		CridId id = CridId.of(9_223_372_036_854_775_807L);
		assertThat(id.value()).isEqualTo(Long.MAX_VALUE);
		assertThat(id).hasToString("9223372036854775807");
		assertThat(CridId.of(0)).hasToString("0");
	}

	@Test
	void ofRejectsNegativeValues() {
		assertThatIllegalArgumentException().isThrownBy(() -> CridId.of(-1)).withMessageContaining("-1");
		assertThatIllegalArgumentException().isThrownBy(() -> CridId.of(Long.MIN_VALUE));
	}

	@ParameterizedTest
	@ValueSource(strings = { "0", "7", "4294967296", "9223372036854775807", "0009", "00000000000000000001" })
	void parsesDecimalDigits(String text) {
		assertThat(CridId.parse(text).value()).isEqualTo(Long.parseLong(text));
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", " 1", "1 ", "+1", "-1", "-0", "1.0", "1e3", "0x10", "abc", "١٢", "12a",
			"9223372036854775808", "9999999999999999999", "18446744073709551616", "99999999999999999999999", "\t1",
			"1\n" })
	void rejectsAnythingButPlainDecimalsInRange(String text) {
		assertThatIllegalArgumentException().isThrownBy(() -> CridId.parse(text))
			.withMessageContaining("\"" + text + "\"");
	}

	@Test
	void rejectsNull() {
		assertThatIllegalArgumentException().isThrownBy(() -> CridId.parse(null)).withMessageContaining("null");
	}

	@Test
	void equalIdsAreEqualValues() {
		assertThat(CridId.of(42)).isEqualTo(CridId.parse("42"))
			.hasSameHashCodeAs(CridId.parse("42"))
			.isNotEqualTo(CridId.of(43))
			.isNotEqualTo(42L);
	}

	@Test
	void ordersByNumericValueNotByText() {
		List<CridId> ids = new ArrayList<>(
				List.of(CridId.of(10), CridId.of(9), CridId.of(Long.MAX_VALUE), CridId.of(0)));
		Collections.sort(ids);
		assertThat(ids).containsExactly(CridId.of(0), CridId.of(9), CridId.of(10), CridId.of(Long.MAX_VALUE));
	}

	@Test
	void survivesJavaSerialization() throws Exception {
		CridId id = CridId.of(794_354_201_396_199L);
		assertThat(deserialize(serialize(id))).isEqualTo(id);
	}

	@Test
	void deserializationRejectsANegativeValue() throws Exception {
		byte[] bytes = serialize(CridId.of(5));
		// The value is the last field written; flip it to -5 as a forged stream would.
		byte[] forged = bytes.clone();
		long minusFive = -5;
		for (int i = 0; i < 8; i++) {
			forged[forged.length - 8 + i] = (byte) (minusFive >>> (56 - 8 * i));
		}
		assertThat(forged).isNotEqualTo(bytes);
		assertThatIllegalArgumentException().isThrownBy(() -> deserialize(forged)).withMessageContaining("-5");
	}

	private static byte[] serialize(CridId id) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
			out.writeObject(id);
		}
		return bytes.toByteArray();
	}

	private static Object deserialize(byte[] bytes) throws IOException, ClassNotFoundException {
		try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
			return in.readObject();
		}
	}

}

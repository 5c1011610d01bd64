package dev.crid;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The base32 form of {@link CridId}: Crockford's alphabet, 13 characters out, forgiving
 * in. The shared vectors ({@code ids.json}) have no base32 entries, so the vectors here
 * were worked out by hand from the definition (value = the digits read in base 32 with
 * digit {@code d} written as the {@code d}-th character of
 * {@code 0123456789ABCDEFGHJKMNPQRSTVWXYZ}), and the round trip is checked against an
 * independent encoding built on {@link Long#toString(long, int)}.
 */
class CridIdBase32Test {

	private static final String CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

	@ParameterizedTest
	@CsvSource({ "0, 0000000000000", "1, 0000000000001", "31, 000000000000Z", "32, 0000000000010",
			"1023, 00000000000ZZ", "1024, 0000000000100", "4294967296, 0000004000000", "2147483648007, 00001YG000007",
			"794354201396199, 000PJER0000Z7", "38390726480144748, 0123456789ABC", "484682921811827448, 0DEFGHJKMNPQR",
			"930975117108838400, 0STVWXYZ00000", "1234567890123456789, 128GGYHYYK08N",
			"4611686018427387904, 4000000000000", "9223372036854775807, 7ZZZZZZZZZZZZ" })
	void encodesAndDecodesTheVectors(long value, String base32) {
		assertThat(CridId.of(value).toBase32()).isEqualTo(base32);
		assertThat(CridId.parseBase32(base32)).isEqualTo(CridId.of(value));
	}

	@Test
	void vectorsTogetherUseEveryCharacterOfTheAlphabet() {
		assertThat("0123456789ABC" + "0DEFGHJKMNPQR" + "0STVWXYZ00000")
			.contains(CROCKFORD.chars().mapToObj(Character::toString).toArray(String[]::new));
	}

	@ParameterizedTest
	@CsvSource({ "7zzzzzzzzzzzz, 9223372036854775807", "00001yg000007, 2147483648007", "00001Yg000007, 2147483648007",
			"OOOOOOOOOOOOI, 1", "oooooooooooo1, 1", "000000000000i, 1", "000000000000L, 1", "000000000000l, 1", "O, 0",
			"I, 1", "Z, 31", "10, 32", "1YG000007, 2147483648007", "0000-0000-0000-1, 1", "-1-, 1",
			"0000--1YG0--0000--7, 2147483648007", "7ZZZ-ZZZZ-ZZZZ-Z, 9223372036854775807",
			"-0-0-0-0-0-0-0-0-0-0-0-0-1-, 1", "0x1f, 29743" })
	void readsEitherCaseMisreadLettersHyphensAndShortForms(String text, long value) {
		assertThat(CridId.parseBase32(text).value()).isEqualTo(value);
	}

	@Test
	void acceptsAnyCharSequence() {
		assertThat(CridId.parseBase32(new StringBuilder("00001YG000007"))).isEqualTo(CridId.of(2147483648007L));
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "-", "---", "U", "u", "0000000000U01", " 1", "1 ", "\t1", "1\n", "+1", "-+1", "1.0",
			"1_0", "0x1F!", "#", "*", "~", "$", "=", "é", "１", "ZZZZZZZZZZZZ!", "8000000000000", "ZZZZZZZZZZZZZ",
			"7ZZZZZZZZZZZZZ", "00000000000000", "00000000000001", "0000-0000-0000-00", "80000000000000000000" })
	void refusesAnythingElseQuotingTheInput(String text) {
		assertThatIllegalArgumentException().isThrownBy(() -> CridId.parseBase32(text))
			.withMessageStartingWith("Invalid base32 crid ID \"" + text + "\": it has ");
	}

	@Test
	void saysWhatIsWrongWithTheInput() {
		assertThatIllegalArgumentException().isThrownBy(() -> CridId.parseBase32("0000000000U01"))
			.withMessageContaining("'U' at index 10, which is no base32 character");
		assertThatIllegalArgumentException().isThrownBy(() -> CridId.parseBase32("8000000000000"))
			.withMessageContaining("a value above 9223372036854775807 (7ZZZZZZZZZZZZ)");
		assertThatIllegalArgumentException().isThrownBy(() -> CridId.parseBase32("00000000000001"))
			.withMessageContaining("more than 13 base32 characters");
		assertThatIllegalArgumentException().isThrownBy(() -> CridId.parseBase32("--"))
			.withMessageContaining("no base32 character");
	}

	@Test
	void refusesNull() {
		assertThatIllegalArgumentException().isThrownBy(() -> CridId.parseBase32(null))
			.withMessageStartingWith("Invalid base32 crid ID null");
	}

	@Test
	void roundTripsManyRandomValuesAndEveryPowerOfTwoThroughEveryAcceptedSpelling() {
		roundTripValues().forEach((value) -> {
			CridId id = CridId.of(value);
			String base32 = id.toBase32();
			assertThat(base32).as("base32 of %d", value).isEqualTo(independentBase32(value));
			for (String spelling : List.of(base32, base32.toLowerCase(Locale.ROOT),
					base32.replace('0', 'O').replace('1', 'I'), base32.replace('1', 'l'),
					base32.substring(0, 4) + "-" + base32.substring(4, 8) + "-" + base32.substring(8),
					stripLeadingZeros(base32))) {
				assertThat(CridId.parseBase32(spelling)).as("%s, for %d", spelling, value).isEqualTo(id);
			}
		});
	}

	@Test
	void stringsSortAsTheIdsDo() {
		Random random = new Random(20260101);
		List<CridId> ids = new ArrayList<>();
		for (int i = 0; i < 2_000; i++) {
			ids.add(CridId.of(random.nextLong() >>> (1 + random.nextInt(63))));
		}
		List<String> byValue = ids.stream().sorted().map(CridId::toBase32).toList();
		List<String> byText = ids.stream().map(CridId::toBase32).sorted().toList();
		assertThat(byText).isEqualTo(byValue);
	}

	/**
	 * Many random values across all magnitudes, and every power of two with its
	 * neighbours.
	 */
	static LongStream roundTripValues() {
		Random random = new Random(42);
		LongStream randomValues = LongStream.generate(() -> random.nextLong() >>> (1 + random.nextInt(63)))
			.limit(5_000);
		LongStream edges = LongStream.rangeClosed(0, 62)
			.flatMap((bit) -> LongStream.of((1L << bit) - 1, 1L << bit, (1L << bit) + 1));
		return Stream.of(randomValues, edges, LongStream.of(Long.MAX_VALUE, Long.MAX_VALUE - 1))
			.flatMapToLong((values) -> values);
	}

	/**
	 * Base32 by another road: the JDK's radix-32 digits ({@code 0-9a-v}) mapped onto
	 * Crockford's alphabet.
	 */
	private static String independentBase32(long value) {
		String jdk = Long.toString(value, 32);
		StringBuilder out = new StringBuilder("0".repeat(13 - jdk.length()));
		for (char c : jdk.toCharArray()) {
			out.append(CROCKFORD.charAt(Character.digit(c, 32)));
		}
		return out.toString();
	}

	private static String stripLeadingZeros(String base32) {
		int first = 0;
		while (first < base32.length() - 1 && base32.charAt(first) == '0') {
			first++;
		}
		return base32.substring(first);
	}

}

package dev.crid.autoconfigure.slices.json;

import dev.crid.CridId;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.json.JsonTest;
import org.springframework.boot.test.json.JacksonTester;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @JsonTest} brings crid's Jackson module: a {@code @Crid Long} and a
 * {@link CridId} are JSON strings in the slice as in the application.
 */
@JsonTest
class JsonSliceTest {

	@Autowired
	private JacksonTester<Receipt> json;

	@Test
	void writesAndReadsCridIdsAsStrings() throws Exception {
		Receipt receipt = new Receipt(9_007_199_254_740_993L, CridId.of(4_294_967_296L), 12);
		assertThat(this.json.write(receipt))
			.isEqualToJson("{\"id\":\"9007199254740993\",\"orderId\":\"4294967296\",\"total\":12}");
		assertThat(this.json.parseObject("{\"id\":9007199254740993,\"orderId\":\"4294967296\",\"total\":12}"))
			.isEqualTo(receipt);
	}

}

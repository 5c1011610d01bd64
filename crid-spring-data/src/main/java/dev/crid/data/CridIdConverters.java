package dev.crid.data;

import java.util.List;

import org.springframework.core.convert.converter.Converter;
import org.springframework.data.convert.ReadingConverter;
import org.springframework.data.convert.WritingConverter;

import dev.crid.CridId;

/**
 * The converters that store a {@link CridId} property as a {@code BIGINT} column and read
 * it back, for an aggregate whose {@code @Id @Crid} (or any other property) is a
 * {@code CridId}. Spring Data JDBC and R2DBC know nothing of {@code CridId} without them;
 * register them as custom conversions:
 *
 * <pre class="code">
 * &#064;Bean
 * JdbcCustomConversions jdbcCustomConversions() {
 *     return new JdbcCustomConversions(CridIdConverters.all());
 * }</pre>
 */
public final class CridIdConverters {

	private CridIdConverters() {
	}

	/**
	 * Returns both converters, {@code CridId} to {@link Long} and back.
	 * @return the converters
	 */
	public static List<Converter<?, ?>> all() {
		return List.of(CridIdToLong.INSTANCE, LongToCridId.INSTANCE);
	}

	/** Writes a {@code CridId} as its {@code long} value. */
	@WritingConverter
	enum CridIdToLong implements Converter<CridId, Long> {

		INSTANCE;

		@Override
		public Long convert(CridId source) {
			return source.value();
		}

	}

	/** Reads a {@code long} column as a {@code CridId}. */
	@ReadingConverter
	enum LongToCridId implements Converter<Long, CridId> {

		INSTANCE;

		@Override
		public CridId convert(Long source) {
			return CridId.of(source);
		}

	}

}

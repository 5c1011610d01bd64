package dev.crid.misusedaggregates;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import dev.crid.data.Crid;

/**
 * An application whose aggregates misuse {@code @Crid} in three ways: Spring Data finds
 * them by scanning this package, as it finds an application's. It lies outside
 * {@code dev.crid.autoconfigure}, so that the other tests' applications, which scan that
 * package, never meet them.
 */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class MisusedAggregates {

	@Table("crid_misused_integer")
	public record IntegerId(@Id @Crid Integer id) {
	}

	@Table("crid_misused_reference")
	public record CridOnAReference(@Id Long id, @Crid Long reference) {
	}

	@Table("crid_misused_node")
	public record UnknownNode(@Id @Crid("nobody") Long id) {
	}

}

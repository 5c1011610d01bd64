package dev.crid.namedaggregates;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import dev.crid.data.Crid;

/**
 * An application with an aggregate whose IDs come from the named node {@code public},
 * found by scanning this package. It lies outside {@code dev.crid.autoconfigure}, so that
 * the other tests' applications, which configure no such node, never meet it.
 */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class NamedNodeAggregates {

	/** An aggregate with an ID from the node {@code public}. */
	@Table("CRID_NAMED_LABEL")
	public record Label(@Id @Crid("public") Long id, String text) {
	}

}

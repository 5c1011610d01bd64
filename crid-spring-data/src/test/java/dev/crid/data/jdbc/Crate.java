package dev.crid.data.jdbc;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import dev.crid.data.Crid;

/**
 * An aggregate whose IDs come from the node named {@code public}.
 */
@Table("crid_data_crate")
record Crate(@Id @Crid("public") Long id, String content) {
}

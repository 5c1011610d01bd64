package dev.crid.data.r2dbc;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import dev.crid.data.Crid;

/**
 * A Spring Data R2DBC aggregate whose IDs come from the node named {@code public}.
 */
@Table("crid_r2dbc_memo")
record Memo(@Id @Crid("public") Long id, String body) {
}

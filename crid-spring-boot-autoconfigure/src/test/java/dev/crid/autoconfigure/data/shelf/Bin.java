package dev.crid.autoconfigure.data.shelf;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import dev.crid.CridId;
import dev.crid.data.Crid;

/**
 * A Spring Data JDBC aggregate whose crid ID is a {@link CridId}, stored through the crid
 * converters.
 */
@Table("CRID_BIN")
public record Bin(@Id @Crid CridId id, String label) {
}

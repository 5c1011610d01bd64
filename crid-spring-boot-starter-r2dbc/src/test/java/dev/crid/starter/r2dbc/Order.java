package dev.crid.starter.r2dbc;

import dev.crid.data.Crid;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * A Spring Data R2DBC aggregate with a crid ID, as an application writes it.
 *
 * @param id the crid ID, {@code null} until saved
 * @param customer who ordered
 */
@Table("crid_starter_orders")
public record Order(@Id @Crid Long id, String customer) {

}

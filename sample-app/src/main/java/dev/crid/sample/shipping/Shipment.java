package dev.crid.sample.shipping;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

import dev.crid.data.Crid;

/**
 * A Spring Data JDBC aggregate in table {@code shipment}: its ID is {@code null} until
 * the first save, which assigns the next ID of the node named public (crid.nodes.public)
 * before the {@code INSERT}. {@code @Table} tells Spring Data that the repository is
 * Spring Data JDBC's, as the application has Spring Data JPA too.
 *
 * @param id the crid ID, {@code null} before the first save
 * @param orderId the order shipped
 * @param destination where it goes
 */
@Table
public record Shipment(@Id @Crid("public") Long id, Long orderId, String destination) {
}

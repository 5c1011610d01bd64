package dev.crid.sample.shipping;

import org.springframework.data.repository.CrudRepository;

/**
 * Shipments, through Spring Data JDBC (the aggregate is no JPA entity, so Spring Data JPA
 * leaves it alone).
 */
public interface ShipmentRepository extends CrudRepository<Shipment, Long> {

}

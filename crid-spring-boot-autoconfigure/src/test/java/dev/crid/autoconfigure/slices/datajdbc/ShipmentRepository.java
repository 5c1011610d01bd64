package dev.crid.autoconfigure.slices.datajdbc;

import org.springframework.data.repository.CrudRepository;

/**
 * Stores shipments.
 */
public interface ShipmentRepository extends CrudRepository<Shipment, Long> {

}

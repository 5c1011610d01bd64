package dev.crid.autoconfigure.slices.datar2dbc;

import org.springframework.data.repository.reactive.ReactiveCrudRepository;

/**
 * Stores parcels.
 */
public interface ParcelRepository extends ReactiveCrudRepository<Parcel, Long> {

}

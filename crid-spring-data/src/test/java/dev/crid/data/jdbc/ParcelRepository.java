package dev.crid.data.jdbc;

import org.springframework.data.repository.CrudRepository;

interface ParcelRepository extends CrudRepository<Parcel, Long> {

}

package dev.crid.autoconfigure.slices.jpa;

import org.springframework.data.jpa.repository.JpaRepository;

/**
 * Stores invoices.
 */
public interface InvoiceRepository extends JpaRepository<Invoice, Long> {

}

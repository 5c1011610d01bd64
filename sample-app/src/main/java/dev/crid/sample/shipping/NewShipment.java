package dev.crid.sample.shipping;

import dev.crid.CridId;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * The body of {@code POST /shipments}.
 *
 * @param orderId the order shipped, as the order's JSON gives it (a string in the form
 * {@code crid.id-format} chooses)
 * @param destination where it goes
 */
public record NewShipment(@NotNull CridId orderId, @NotBlank @Size(max = 200) String destination) {
}

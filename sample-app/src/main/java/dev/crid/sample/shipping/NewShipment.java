package dev.crid.sample.shipping;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * The body of {@code POST /shipments}.
 *
 * @param orderId the order shipped, in decimal
 * @param destination where it goes
 */
public record NewShipment(@NotNull Long orderId, @NotBlank @Size(max = 200) String destination) {
}

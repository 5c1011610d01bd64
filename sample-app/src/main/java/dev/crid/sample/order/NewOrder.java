package dev.crid.sample.order;

import java.util.List;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * The body of {@code POST /orders}, with the bounds of the columns it is stored in.
 *
 * @param customer who places the order, at most 255 characters
 * @param items what they order, one to 100 items
 */
public record NewOrder(@NotBlank @Size(max = 255, message = "must be at most {max} characters") String customer,
		@NotEmpty(message = "must hold at least one item") @Size(max = 100,
				message = "must hold at most {max} items") List<@NotNull @Valid Item> items) {

	/**
	 * One line of a new order.
	 *
	 * @param product the product, at most 255 characters
	 * @param quantity how many, from 1 to 10,000
	 */
	public record Item(@NotBlank @Size(max = 255, message = "must be at most {max} characters") String product,
			@NotNull @Min(value = 1, message = "must be at least {value}") @Max(value = 10_000,
					message = "must be at most {value}") Integer quantity) {
	}

}

/**
 * Auto-configuration of the crid registry on R2DBC, on the application's
 * {@code ConnectionFactory}.
 */
@NullMarked
package dev.crid.autoconfigure.data.r2dbc;

import org.jspecify.annotations.NullMarked;

/**
 * Auto-configuration of the crid registry on R2DBC, on the application's {@code ConnectionFactory}.
 */
package dev.crid.autoconfigure.data.r2dbc;

/**
 * Spring MVC and WebFlux support: {@link dev.crid.CridId} request parameters, and the
 * answers to a malformed ID (400) and to IDs being unavailable (503).
 */
@NullMarked
package dev.crid.autoconfigure.web;

import org.jspecify.annotations.NullMarked;

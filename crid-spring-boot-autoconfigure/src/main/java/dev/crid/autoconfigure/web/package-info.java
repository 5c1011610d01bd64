/**
 * Spring MVC and WebFlux support: {@link dev.crid.CridId} request parameters, and the
 * answers to a malformed ID (400), to IDs unavailable for a while (503) and to a failure
 * that does not pass by itself (500).
 */
@NullMarked
package dev.crid.autoconfigure.web;

import org.jspecify.annotations.NullMarked;

/**
 * The {@code @WebMvcTest} and {@code @WebFluxTest} slice tests with crid in them, one
 * controller that runs on both stacks, and the small application they are cut from.
 */
package dev.crid.autoconfigure.slices.web;

/**
 * The crid sample application: a Spring Boot web service whose entities, events and API
 * use crid IDs.
 */
package dev.crid.sample;

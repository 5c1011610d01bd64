/**
 * What the API answers to bad requests: problem details (RFC 9457) that name the field
 * and the reason, and a bound on the size of a request body.
 */
package dev.crid.sample.web;

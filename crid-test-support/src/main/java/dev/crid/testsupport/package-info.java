/**
 * Test-only helpers shared by crid's modules: {@link dev.crid.testsupport.TestDatabase} finds the real
 * databases that integration tests run against.
 */
package dev.crid.testsupport;

/**
 * Test-only helpers shared by crid's modules: {@link dev.crid.testsupport.TestDatabase}
 * finds the real databases that integration tests run against, and
 * {@link dev.crid.testsupport.SkippedClassReporting} makes a class skipped for want of
 * one show in the reports.
 */
package dev.crid.testsupport;

/**
 * Test-only helpers shared by crid's modules: {@link dev.crid.testsupport.TestDatabase}
 * finds the real databases that integration tests run against, and
 * {@link dev.crid.testsupport.SkippedClassReporting} makes a class skipped for want of
 * one show in the reports; {@link dev.crid.testsupport.EtcdCluster} and
 * {@link dev.crid.testsupport.GaleraCluster} start clusters of their own from the
 * installed binaries.
 */
package dev.crid.testsupport;

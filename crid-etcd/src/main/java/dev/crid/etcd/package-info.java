/**
 * A crid registry on an etcd cluster: {@link dev.crid.etcd.EtcdRegistry} keeps one key
 * per second under a prefix, holding the next unreserved sequence number of that second,
 * and reserves blocks by compare-and-swap on the key's revision, through a jetcd
 * {@link io.etcd.jetcd.Client}.
 */
@NullMarked
package dev.crid.etcd;

import org.jspecify.annotations.NullMarked;

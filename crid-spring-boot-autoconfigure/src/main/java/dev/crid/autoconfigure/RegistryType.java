package dev.crid.autoconfigure;

/**
 * The kinds of registry that {@code crid.registry.type} selects.
 */
public enum RegistryType {

	/**
	 * The first kind the application can have, in this order: {@link #ETCD} when
	 * {@code crid.registry.etcd.endpoints} is set, {@link #JDBC} with a DataSource,
	 * {@link #R2DBC} with an R2DBC ConnectionFactory, else {@link #MEMORY}.
	 */
	AUTO,

	/**
	 * The database registry, through the application's DataSource; start-up fails without
	 * one.
	 */
	JDBC,

	/**
	 * The database registry on R2DBC, through the application's ConnectionFactory;
	 * start-up fails without one.
	 */
	R2DBC,

	/**
	 * The registry on an etcd cluster, at {@code crid.registry.etcd.endpoints}; start-up
	 * fails without crid-etcd on the classpath or without endpoints.
	 */
	ETCD,

	/**
	 * An in-memory registry: IDs are unique within this process only.
	 */
	MEMORY

}

package dev.crid.autoconfigure.registry;

/**
 * A bean that prepares a database registry's tables when it is created, JDBC's or
 * R2DBC's: what {@link RegistrySchemaInitializerDetector} tells Spring Boot is a database
 * initializer, so that the application's {@link dev.crid.CridNode} beans are created, and
 * reserve their first block, only after it.
 */
interface DatabaseRegistryInitializer {

}

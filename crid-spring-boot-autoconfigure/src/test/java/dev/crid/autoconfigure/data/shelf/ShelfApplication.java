package dev.crid.autoconfigure.data.shelf;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.annotation.Configuration;

/**
 * An application in this package, where Spring Data finds its aggregates.
 */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class ShelfApplication {

}

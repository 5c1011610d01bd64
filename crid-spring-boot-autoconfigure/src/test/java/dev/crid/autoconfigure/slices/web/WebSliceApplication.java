package dev.crid.autoconfigure.slices.web;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application the {@code @WebMvcTest} and {@code @WebFluxTest} slices are cut from.
 */
@SpringBootApplication
public class WebSliceApplication {

}

package dev.crid.autoconfigure.slices.jpa;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application the {@code @DataJpaTest} slice is cut from.
 */
@SpringBootApplication
public class JpaSliceApplication {

}

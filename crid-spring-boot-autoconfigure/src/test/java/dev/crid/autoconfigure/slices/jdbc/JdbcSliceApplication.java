package dev.crid.autoconfigure.slices.jdbc;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application the {@code @JdbcTest} slice is cut from.
 */
@SpringBootApplication
public class JdbcSliceApplication {

}

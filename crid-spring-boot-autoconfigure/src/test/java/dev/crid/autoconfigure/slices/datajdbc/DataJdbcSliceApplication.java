package dev.crid.autoconfigure.slices.datajdbc;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application the {@code @DataJdbcTest} slice is cut from.
 */
@SpringBootApplication
public class DataJdbcSliceApplication {

}

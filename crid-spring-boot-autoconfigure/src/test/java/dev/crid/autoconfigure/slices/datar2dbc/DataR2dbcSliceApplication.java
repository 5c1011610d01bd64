package dev.crid.autoconfigure.slices.datar2dbc;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application the {@code @DataR2dbcTest} slice is cut from.
 */
@SpringBootApplication
public class DataR2dbcSliceApplication {

}

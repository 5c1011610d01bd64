package dev.crid.autoconfigure.slices.json;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application the {@code @JsonTest} slice is cut from.
 */
@SpringBootApplication
public class JsonSliceApplication {

}

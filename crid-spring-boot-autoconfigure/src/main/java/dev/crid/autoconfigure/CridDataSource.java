package dev.crid.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.beans.factory.annotation.Qualifier;

/**
 * Qualifies the {@link javax.sql.DataSource} that crid's database registry uses, when the
 * application has more than one: crid keeps its registry table there, creates it there
 * (see {@code crid.registry.jdbc.initialize-schema}) and checks it there for the health
 * indicator. Without it, crid uses the only DataSource, or the {@code @Primary} one; with
 * several and neither, start-up fails and says so. Works as Spring Boot's
 * {@code @FlywayDataSource} does:
 *
 * <pre class="code">
 * &#064;Bean
 * &#064;CridDataSource
 * DataSource idsDataSource() {
 *     ...
 * }</pre>
 */
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Qualifier
public @interface CridDataSource {

}

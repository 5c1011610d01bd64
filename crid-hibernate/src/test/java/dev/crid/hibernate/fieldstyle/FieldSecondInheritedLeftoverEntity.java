package dev.crid.hibernate.fieldstyle;

import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/**
 * A second entity whose ID, with a leftover {@code @GeneratedValue} beside {@code @Crid},
 * comes from {@link FieldLeftoverBaseEntity}.
 */
@Entity
@Table(name = "crid_hib_field_second_inherited_leftover")
public class FieldSecondInheritedLeftoverEntity extends FieldLeftoverBaseEntity {

}

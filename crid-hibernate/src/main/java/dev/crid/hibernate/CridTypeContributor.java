package dev.crid.hibernate;

import dev.crid.CridId;
import org.hibernate.boot.model.TypeContributions;
import org.hibernate.boot.model.TypeContributor;
import org.hibernate.service.ServiceRegistry;

/**
 * Maps {@link CridId} attributes, identifiers included, to {@code BIGINT} columns.
 * Hibernate finds it on the classpath through {@link java.util.ServiceLoader};
 * applications do not use it directly.
 */
public final class CridTypeContributor implements TypeContributor {

	/**
	 * Creates the contributor; called by Hibernate.
	 */
	public CridTypeContributor() {
	}

	/**
	 * Registers how {@link CridId} is stored.
	 * @param typeContributions where Hibernate collects types
	 * @param serviceRegistry Hibernate's services (not used)
	 */
	@Override
	public void contribute(TypeContributions typeContributions, ServiceRegistry serviceRegistry) {
		typeContributions.contributeJavaType(CridIdJavaType.INSTANCE);
	}

}

package dev.crid.hibernate;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.hibernate.SessionFactory;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;

/**
 * A {@link SessionFactory} bootstrapped the plain-Hibernate way (no Spring, no JPA
 * provider lookup), with its service registry, closed together.
 */
final class TestHibernate implements AutoCloseable {

	private final StandardServiceRegistry registry;

	private final SessionFactory sessionFactory;

	private TestHibernate(StandardServiceRegistry registry, SessionFactory sessionFactory) {
		this.registry = registry;
		this.sessionFactory = sessionFactory;
	}

	/**
	 * Returns the settings every test starts from: the data source, and tables created
	 * for the entities and dropped at close.
	 */
	static Map<String, Object> settings(DataSource dataSource) {
		Map<String, Object> settings = new HashMap<>();
		settings.put(AvailableSettings.DATASOURCE, dataSource);
		settings.put(AvailableSettings.HBM2DDL_AUTO, "create-drop");
		return settings;
	}

	/**
	 * Builds a session factory for the given entities.
	 */
	static TestHibernate build(Map<String, Object> settings, List<Class<?>> entities) {
		StandardServiceRegistry registry = new StandardServiceRegistryBuilder().applySettings(settings).build();
		try {
			MetadataSources sources = new MetadataSources(registry);
			entities.forEach(sources::addAnnotatedClass);
			return new TestHibernate(registry, sources.buildMetadata().buildSessionFactory());
		}
		catch (RuntimeException ex) {
			StandardServiceRegistryBuilder.destroy(registry);
			throw ex;
		}
	}

	SessionFactory sessionFactory() {
		return this.sessionFactory;
	}

	@Override
	public void close() {
		try {
			this.sessionFactory.close();
		}
		finally {
			StandardServiceRegistryBuilder.destroy(this.registry);
		}
	}

}

package dev.crid.hibernate;

import java.util.ArrayList;
import java.util.List;

import org.hibernate.MappingException;
import org.hibernate.SessionFactory;
import org.hibernate.SessionFactoryObserver;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.generator.Generator;

/**
 * Fails the {@code SessionFactory} when an identifier that asks for generator {@code "crid"} did not get a
 * {@link CridIdentifierGenerator}. Registered by {@link CridGeneratorIntegrator}; it runs when the factory
 * is complete, because that is when Hibernate has decided every generator. An exception thrown here makes
 * Hibernate close the factory and rethrow it to whoever was building it.
 */
final class CridGeneratorCheck implements SessionFactoryObserver {

	private static final long serialVersionUID = 1L;

	private final List<Request> requests;

	CridGeneratorCheck(List<Request> requests) {
		this.requests = List.copyOf(requests);
	}

	@Override
	public void sessionFactoryCreated(SessionFactory factory) {
		SessionFactoryImplementor sessionFactory = factory.unwrap(SessionFactoryImplementor.class);
		List<String> problems = new ArrayList<>();
		for (Request request : this.requests) {
			Generator generator = sessionFactory.getMappingMetamodel()
				.getEntityDescriptor(request.entityName())
				.getGenerator();
			if (!(generator instanceof CridIdentifierGenerator)) {
				problems.add(request.describe(generator));
			}
		}
		if (!problems.isEmpty()) {
			throw new MappingException(String.join("\n", problems));
		}
	}

	/**
	 * An identifier that asks for generator {@code "crid"}.
	 *
	 * @param entityName the entity
	 * @param memberName the identifier's field or getter
	 * @param declaringClass the class that declares the identifier (an entity or a mapped superclass)
	 */
	record Request(String entityName, String memberName, String declaringClass) implements java.io.Serializable {

		String describe(Generator generator) {
			int dot = this.declaringClass.lastIndexOf('.');
			String packageName = (dot > 0) ? this.declaringClass.substring(0, dot) : "(the unnamed package)";
			String chosen = (generator != null) ? generator.getClass().getName() : "no generator";
			return "The identifier of entity " + this.entityName + " ('" + this.memberName + "' declared in "
					+ this.declaringClass + ") asks for @GeneratedValue(generator = \"" + CridGeneratorIntegrator.GENERATOR_NAME
					+ "\"), but no @Crid is in reach, so Hibernate chose " + chosen + " instead of crid IDs. Put "
					+ "@dev.crid.hibernate.Crid on the identifier, on class " + this.declaringClass + ", or on package "
					+ packageName + " in its package-info.java: Hibernate looks only there, in the package of the class "
					+ "that declares the identifier.";
		}

	}

}

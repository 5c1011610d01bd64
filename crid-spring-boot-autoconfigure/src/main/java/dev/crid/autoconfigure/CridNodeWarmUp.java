package dev.crid.autoconfigure;

import dev.crid.CridException;
import dev.crid.CridNode;
import dev.crid.LayoutMismatchException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Gets the application's {@link CridNode} ready once every bean exists (so after Flyway, Liquibase and
 * SQL scripts, and after the registry table is prepared): checks the layout with the registry and
 * reserves the first block, so the first requests find IDs in memory and never need a pooled connection
 * for them. A registry used with another layout stops start-up; a registry that does not answer does
 * not (it may come up later): the failure is logged, the health indicator reports it, and the node keeps
 * trying when IDs are asked for.
 */
final class CridNodeWarmUp implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(CridNodeWarmUp.class);

	private final ObjectProvider<CridNode> node;

	CridNodeWarmUp(ObjectProvider<CridNode> node) {
		this.node = node;
	}

	@Override
	public void afterSingletonsInstantiated() {
		CridNode cridNode = this.node.getIfUnique();
		if (cridNode == null) {
			return;
		}
		try {
			cridNode.warmUp();
		}
		catch (LayoutMismatchException ex) {
			throw ConfigurationFailures.layoutMismatch(ex);
		}
		catch (CridException ex) {
			logger.warn("crid could not reserve its first block at start-up; IDs are refused until the registry "
					+ "answers, and the health indicator reports it: " + ex.getMessage());
		}
	}

}

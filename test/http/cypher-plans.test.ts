import { join } from 'node:path';
import neo4j from 'neo4j-driver';
import { CypherRegistry } from '../../src/db/cypherRegistry';

/**
 * Every statement plans on the Neo4j the tests run without a deprecated feature. The service's
 * driver asks Neo4j to leave notifications out of its answers (src/db/driver.ts), so this is
 * where a deprecation (the next Neo4j removing what a statement relies on) shows.
 */
it('plans every Cypher statement without a deprecation notification', async () => {
  const driver = neo4j.driver(
    process.env.NEO4J_URI!,
    neo4j.auth.basic(process.env.NEO4J_USER ?? 'neo4j', process.env.NEO4J_PASSWORD ?? 'neo4j'),
  );
  const registry = new CypherRegistry(join(__dirname, '../../cypher'));
  const session = driver.session({ notificationFilter: { minimumSeverityLevel: 'INFORMATION' } });
  const deprecated: string[] = [];
  try {
    for (const name of registry.names()) {
      const planned = await session.run(`EXPLAIN ${registry.get(name)}`);
      for (const n of planned.summary.notifications) if (/Deprecation/.test(n.code)) deprecated.push(`${name}: ${n.description}`);
    }
  } finally {
    await session.close();
    await driver.close();
  }
  expect(registry.names().length).toBeGreaterThan(100);
  expect(deprecated).toEqual([]);
});

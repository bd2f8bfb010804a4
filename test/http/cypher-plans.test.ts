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
  const deprecated: string[] = [];
  const names = registry.names();
  // Two sessions plan at once (planning is Neo4j's CPU: the tests' boxes have two cores).
  let next = 0;
  const planner = async () => {
    const session = driver.session({ notificationFilter: { minimumSeverityLevel: 'INFORMATION' } });
    try {
      for (let i = next++; i < names.length; i = next++) {
        const planned = await session.run(`EXPLAIN ${registry.get(names[i])}`);
        for (const n of planned.summary.notifications) if (/Deprecation/.test(n.code)) deprecated.push(`${names[i]}: ${n.description}`);
      }
    } finally {
      await session.close();
    }
  };
  try {
    await Promise.all([planner(), planner()]);
  } finally {
    await driver.close();
  }
  expect(names.length).toBeGreaterThan(100);
  expect(deprecated.sort()).toEqual([]);
  // Planning several hundred statements, some of them long, on a busy box: more than the default minute.
}, 240_000);

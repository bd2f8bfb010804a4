import type { Driver } from 'neo4j-driver';

/**
 * Waits until a statement whose text contains `fragment` is blocked on a lock in Neo4j, or until
 * `ms` have passed (a statement that takes no such lock has answered by then). Only that
 * statement counts: other test files share the Neo4j and may have blocked transactions of their own.
 */
export async function untilBlocked(driver: Driver, fragment: string, ms = 5000): Promise<void> {
  const watch = driver.session();
  try {
    for (const until = Date.now() + ms; Date.now() < until; await new Promise((done) => setTimeout(done, 50))) {
      const rows = await watch.run(
        "SHOW TRANSACTIONS YIELD status, currentQuery WHERE status STARTS WITH 'Blocked' AND currentQuery CONTAINS $fragment RETURN count(*) AS n",
        { fragment },
      );
      if (Number(rows.records[0].get('n')) > 0) return;
    }
  } finally {
    await watch.close();
  }
}

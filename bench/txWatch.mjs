// Prints, every second, Neo4j's transactions running longer than 500 ms (SHOW TRANSACTIONS) on
// TEST_NEO4J_PORT: which statement, its status (blocked on a lock?), how long. A helper to watch a
// benchmark run beside it; stops after WATCH_S seconds (default 600).
import neo4j from 'neo4j-driver';

const port = Number(process.env.TEST_NEO4J_PORT ?? 7747);
const until = Date.now() + Number(process.env.WATCH_S ?? 600) * 1000;
const driver = neo4j.driver(`bolt://127.0.0.1:${port}`, neo4j.auth.basic('neo4j', 'neo4j'), { disableLosslessIntegers: true });
while (Date.now() < until) {
  try {
    const s = driver.session();
    const r = await s.run(
      'SHOW TRANSACTIONS YIELD transactionId, currentQuery, status, elapsedTime WHERE elapsedTime.milliseconds > 500 RETURN transactionId, status, elapsedTime.milliseconds AS ms, left(currentQuery, 90) AS q',
    );
    await s.close();
    const rows = r.records.map((x) => x.toObject());
    if (rows.length)
      console.log(
        `${new Date().toISOString().slice(11, 19)} ${rows.length} long: ${rows
          .slice(0, 6)
          .map((x) => `[${x.ms} ms ${x.status.slice(0, 60)} ${x.q.replace(/\s+/g, ' ')}]`)
          .join(' ')}`,
      );
  } catch {
    /* not up yet */
  }
  await new Promise((ok) => setTimeout(ok, 1000));
}
await driver.close();

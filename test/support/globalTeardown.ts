export default async function globalTeardown(): Promise<void> {
  const stop = (globalThis as { __neo4jStop?: () => Promise<void> }).__neo4jStop;
  if (stop) await stop();
}

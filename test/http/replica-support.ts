import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { bootService, type Service } from '../../src/boot';
import { loadConfig } from '../../src/config';
import { createHttpServer } from '../../src/http/server';

/** A second service instance on the run's Neo4j, as another replica behind a load balancer. */
export interface Replica {
  service: Service;
  url: string;
  /** POST with a key; answers status and parsed body. */
  post(path: string, body: unknown, key: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * Resolves once the service answers from its coherence window: a few seconds after it starts,
 * when every replica knows of it (its heartbeat, src/db/replicas.ts). Before that it reads on
 * every request, which would leave the window untested.
 */
export async function untilWindowOpen(service: Service): Promise<void> {
  for (let waited = 0; !service.parts.revisions.windowOpen() && waited < 15_000; waited += 50)
    await new Promise((ok) => setTimeout(ok, 50));
  if (!service.parts.revisions.windowOpen()) throw new Error('the replica did not open its coherence window within 15 s');
}

/** Its revision poll is slow (10 min) so that only the read-your-revoke rule can make it see another replica's writes. */
export async function startReplica(env: Record<string, string> = {}): Promise<Replica> {
  const config = loadConfig({
    ...process.env,
    ...env,
    ADMIN_API_KEY: 'replica-b-admin-key-0123456789',
    LOG_LEVEL: 'silent',
    REVISION_POLL_MS: '600000',
  });
  const service = await bootService(config, pino({ level: 'silent' }), {
    uri: process.env.NEO4J_URI!,
    user: process.env.NEO4J_USER ?? 'neo4j',
    password: process.env.NEO4J_PASSWORD ?? 'neo4j',
  });
  const server: Server = createHttpServer(service.app.handler, undefined, { lane: service.app.lane });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await untilWindowOpen(service);
  return {
    service,
    url,
    async post(path, body, key) {
      const res = await fetch(url + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    async close() {
      await new Promise<void>((ok) => server.close(() => ok()));
      await service.stop();
    },
  };
}

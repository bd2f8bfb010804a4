import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { bootService, type Service } from '../../src/boot';
import { loadConfig } from '../../src/config';
import { createHttpServer } from '../../src/http/server';
import { ResponseChecker } from './responseSchemas';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestService {
  url: string;
  adminKey: string;
  service: Service;
  /** A fresh project and environment for this test file, with an environment key. */
  proj: string;
  env: string;
  envKey: string;
  call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    opts?: { key?: string | null; headers?: Record<string, string>; raw?: string },
  ): Promise<ApiResponse<T>>;
  /** `call` with the admin key that throws unless the answer has `status` (default: any 2xx); answers the body. */
  ok<T = any>(method: string, path: string, body?: unknown, status?: number): Promise<T>;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  /** Another Neo4j than the run's shared one (e.g. one the test stops and restarts). */
  neo4jUri?: string;
  /** Settings of this service only (e.g. `{ DECISION_LOG_SAMPLE: '1' }`), over the process environment. */
  env?: Record<string, string>;
}

/** Boots the real service on port 0 against the run's Neo4j, in a project/env of its own. */
export async function startTestService(opts: TestServiceOptions = {}): Promise<TestService> {
  const adminKey = `test_admin_${randomUUID()}`;
  const config = loadConfig({ ...process.env, ...opts.env, ADMIN_API_KEY: adminKey, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const log = pino({ level: config.logLevel });
  const service = await bootService(config, log, {
    uri: opts.neo4jUri ?? process.env.NEO4J_URI!,
    user: process.env.NEO4J_USER ?? 'neo4j',
    password: process.env.NEO4J_PASSWORD ?? 'neo4j',
  });
  const server: Server = createHttpServer(service.app.handler, log, { lane: service.app.lane });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const checker = new ResponseChecker(service.app.routes);
  const call: TestService['call'] = async (method, path, body, opts = {}) => {
    const key = opts.key === undefined ? adminKey : opts.key;
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (key) headers.authorization = `Bearer ${key}`;
    let payload: string | undefined = opts.raw;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    } else if (payload !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
    const res = await fetch(url + path, { method, headers, body: payload });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    // A drifting answer fails the test that received it (docs/behaviour.md section 9).
    const problem = checker.problem(method, path, res.status, parsed);
    if (problem) throw new Error(`Response schema violation: ${problem}`);
    return { status: res.status, body: parsed, headers: res.headers };
  };

  const ok: TestService['ok'] = async (method, path, body, status) => {
    const res = await call(method, path, body);
    const good = status === undefined ? res.status >= 200 && res.status < 300 : res.status === status;
    if (!good) throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  const proj = `p_${randomUUID().slice(0, 8)}`;
  const env = 'test';
  // A service with a low DB_TIMEOUT_MS (the outage test) may answer 503 on a cold, busy Neo4j:
  // such a set-up call is sent again (a create that did land then answers 409, which is fine).
  const setUp: typeof call = async (method, path, body) => {
    for (let attempt = 1; ; attempt++) {
      const res = await call(method, path, body);
      if (res.status !== 503 || attempt === 10) return attempt > 1 && res.status === 409 ? { ...res, status: 200 } : res;
    }
  };
  const p = await setUp('POST', '/v2/projects', { key: proj, name: proj });
  if (p.status !== 200) throw new Error(`project create failed: ${JSON.stringify(p.body)}`);
  const e = await setUp('POST', `/v2/projects/${proj}/envs`, { key: env, name: env });
  if (e.status !== 200) throw new Error(`env create failed: ${JSON.stringify(e.body)}`);
  const k = await setUp('POST', `/v2/api-key/${proj}/${env}`, {});
  if (k.status !== 200) throw new Error(`key create failed: ${JSON.stringify(k.body)}`);

  return {
    url,
    adminKey,
    service,
    proj,
    env,
    envKey: k.body.secret,
    call,
    ok,
    close: async () => {
      await new Promise<void>((ok) => server.close(() => ok()));
      server.closeAllConnections();
      await service.stop();
    },
  };
}

/**
 * Runs Cypher on the service's own Neo4j, for tests that write a graph as an older version did
 * (migration and upgrade tests): the rows as plain objects.
 */
export async function runCypher(t: TestService, text: string, params: Record<string, unknown> = {}): Promise<Record<string, any>[]> {
  const session = t.service.driver.session();
  try {
    return (await session.run(text, params)).records.map((r) => r.toObject());
  } finally {
    await session.close();
  }
}

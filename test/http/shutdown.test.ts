import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import neo4j from 'neo4j-driver';

/**
 * docs/behaviour.md section 9 (soak and crash): SIGTERM to the built service under load. New connections
 * are refused at once, an idle keep-alive connection is closed at once, and every request in
 * flight finishes with 2xx even when it takes longer than the old 10-s drain (here: writes
 * queued behind a lock on their environment, held by this test for 12 s, the way writes queue
 * behind a slow Neo4j); then the process exits 0 and the writes are in the graph.
 */
jest.setTimeout(240_000);
const ROOT = join(__dirname, '..', '..');
const HOLD_MS = 12_000; // longer than the old forced close at 10 s
const WRITES = 6;

function request(port: number, agent: http.Agent, method: string, path: string, key: string, body?: unknown) {
  return new Promise<{ status: number; body: any }>((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    // A cut connection answers status 0 with the error, so that the assertion shows it.
    req.on('error', (err) => resolve({ status: 0, body: err.message }));
    req.end(payload);
  });
}

it('SIGTERM under load: no new connections, idle ones closed, in-flight requests finish with 2xx, exit 0', async () => {
  if (!existsSync(join(ROOT, 'dist', 'src', 'main.js'))) {
    await promisify(execFile)(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
      cwd: ROOT,
    });
  }
  const admin = `shutdown_admin_${randomUUID()}`;
  const service = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'main.js')], {
    // DB_TIMEOUT_MS above the lock hold, so that the queued writes succeed rather than time out.
    env: {
      ...process.env,
      NEO4J_URI: process.env.NEO4J_URI,
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_API_KEY: admin,
      LOG_LEVEL: 'silent',
      DB_TIMEOUT_MS: '20000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((ok) => service.on('exit', (code) => ok(code)));
  const driver = neo4j.driver(
    process.env.NEO4J_URI!,
    neo4j.auth.basic(process.env.NEO4J_USER ?? 'neo4j', process.env.NEO4J_PASSWORD ?? 'neo4j'),
  );
  const lock = driver.session();
  try {
    const port = await new Promise<number>((ok, fail) => {
      let out = '';
      service.stdout.on('data', (c) => {
        out += String(c);
        const m = /is ready at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (m) ok(Number(m[1]));
      });
      void exited.then((code) => fail(new Error(`service exited (${code}) before it was ready`)));
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: WRITES * 2 });
    const must = async (method: string, path: string, body?: unknown) => {
      const r = await request(port, agent, method, path, admin, body);
      if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
      return JSON.parse(r.body || 'null');
    };
    const proj = `shutdown_${randomUUID().slice(0, 8)}`;
    await must('POST', '/v2/projects', { key: proj, name: proj });
    const env = await must('POST', `/v2/projects/${proj}/envs`, { key: 'e', name: 'e' });
    await must('POST', `/v2/schema/${proj}/e/roles`, { key: 'approver', name: 'Approver', permissions: [] });
    const users = Array.from({ length: WRITES }, (_, i) => `u${i}`);
    await must('POST', `/v2/facts/${proj}/e/users/bulk`, { operations: users.map((key) => ({ key })) });

    // An idle keep-alive connection: one answered request, then nothing.
    const idle = net.connect(port, '127.0.0.1');
    const idleClosed = new Promise<number>((ok) => idle.on('close', () => ok(Date.now())));
    await new Promise<void>((ok) => {
      idle.once('data', () => ok());
      idle.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    });

    // Writes to the environment queue behind this transaction's lock on its node.
    const tx = lock.beginTransaction();
    await tx.run('MATCH (e:Environment {id: $id}) SET e.revision = e.revision RETURN e.id', { id: env.id });
    const writes = users.map((user) =>
      request(port, agent, 'POST', `/v2/facts/${proj}/e/role_assignments`, admin, { user, role: 'approver', tenant: 'default' }),
    );
    await new Promise((ok) => setTimeout(ok, 1500)); // let the service read them and reach the lock

    // A request sent on a kept-alive connection right before the signal is in flight too, not idle.
    const late = net.connect(port, '127.0.0.1');
    await new Promise<void>((ok) => {
      late.once('data', () => ok());
      late.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    let lateAnswer = '';
    late.on('data', (c) => (lateAnswer += String(c)));
    const lateClosed = new Promise<void>((ok) => late.on('close', () => ok()));
    late.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');

    const termAt = Date.now();
    service.kill('SIGTERM');
    await new Promise((ok) => setTimeout(ok, 500));
    const refused = await new Promise<string>((ok) => {
      const s = net.connect(port, '127.0.0.1');
      s.on('connect', () => (s.destroy(), ok('connected')));
      s.on('error', (err: NodeJS.ErrnoException) => ok(err.code ?? err.message));
    });
    expect(refused).toBe('ECONNREFUSED');
    expect((await idleClosed) - termAt).toBeLessThan(2000);
    await lateClosed;
    expect(lateAnswer).toMatch(/^HTTP\/1\.1 200 /);

    await new Promise((ok) => setTimeout(ok, Math.max(0, termAt + HOLD_MS - Date.now())));
    await tx.rollback();
    const answers = await Promise.all(writes);
    expect(answers.map((a) => a.status)).toEqual(users.map(() => 200));
    expect(await exited).toBe(0);

    const check = driver.session();
    const found = await check.run(`MATCH (u:User {env: $env})-[r:HAS_TENANT_ROLE {role: 'approver'}]->() RETURN count(r) AS n`, {
      env: env.id,
    });
    await check.close();
    expect(found.records[0].get('n').toNumber()).toBe(WRITES);
  } finally {
    service.kill('SIGKILL');
    await lock.close();
    await driver.close();
  }
});

// An export of the bench dataset (bench/dataset.mjs, 193,800 facts at BENCH_SCALE=1) while writes
// go on: `npm run bench:export-live` (alone on the box: it starts a Neo4j). The dataset is
// loaded through the API (bench/ours.mjs; kept between runs with BENCH_KEEP_NEO4J=1), then:
// 1. a quiet export (no writer): its duration;
// 2. a writer at BENCH_WRITES_PER_S (default 50) writes/s, open loop (one started every 1/rate s
//    whatever the answers), mixed: users created, their attribute changed, deleted; direct grants
//    on repos and group memberships given and taken back; each write's latency and the revision
//    its answer names (X-Authz-Revision) are kept;
// 3. after BENCH_BEFORE_S (default 10) seconds, an export while the writer goes on: its duration,
//    how it was read (the header's `read`), and the writers' p50/p99 during it against before it;
// 4. exactness: the export holds, of the writer's records, exactly those of the writes at or before
//    its revision (users with their attribute, grants, memberships), none after; its end line's
//    counts equal its lines, and its records and links differ from the quiet export's by exactly the
//    writes at or before its revision. No write may fail (any failure is printed, exit code 1).
// EXPORT_HOLD_MS and DB_TIMEOUT_MS are the service's defaults (2000, 4000) unless set.
import http from 'node:http';
import os from 'node:os';
import { buildDataset } from './dataset.mjs';
import { loadOurs, startOurs } from './ours.mjs';

process.env.EXPORT_HOLD_MS ??= '2000';
process.env.DB_TIMEOUT_MS ??= '4000';
const scale = Number(process.env.BENCH_SCALE ?? 1);
const rate = Number(process.env.BENCH_WRITES_PER_S ?? 50);
const beforeS = Number(process.env.BENCH_BEFORE_S ?? 10);
const neo4jPort = Number(process.env.TEST_NEO4J_PORT ?? process.env.BENCH_NEO4J_PORT ?? 7747);
const port = Number(process.env.BENCH_PORT ?? neo4jPort + 10_410);
/** The writer's users: a prefix of this run's own (a kept Neo4j holds earlier runs' users). */
const LIVE = `live${Date.now().toString(36)}-`;
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
function call(base, key, method, path, body) {
  return new Promise((resolve) => {
    const url = new URL(path, base);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const started = performance.now();
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
      },
    );
    req.on('error', (err) => resolve({ status: 0, headers: {}, text: String(err), ms: performance.now() - started }));
    req.end(payload);
  });
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : Number.NaN;
};
const parse = (text) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

const ours = await startOurs({ port, neo4jPort, concurrency: 16 });
try {
  const { base, project, adminKey } = ours;
  const facts = `/v2/facts/${project}/bench`;
  const ds = buildDataset({
    users: Math.round(10_000 * scale),
    chains: Math.max(10, Math.round(200 * scale)),
    repos: Math.round(20_000 * scale),
  });
  // A cold Neo4j (a kept one just started) may answer its first reads after DB_TIMEOUT_MS: asked again.
  let asked = await call(base, adminKey, 'GET', `${facts}/users?per_page=1`);
  for (let i = 0; i < 5 && asked.status === 503; i++) asked = await call(base, adminKey, 'GET', `${facts}/users?per_page=1`);
  const present = JSON.parse(asked.text);
  if (!((present.total_count ?? 0) > 1)) {
    const l = await loadOurs(ours.api, project, ds, { loaders: 2 });
    console.log(`loaded ${l.facts} facts through the API in ${l.seconds.toFixed(1)} s`);
  } else console.log('dataset already loaded (BENCH_KEEP_NEO4J)');
  // The export's body is kept as it arrives and parsed only when read (after the writer stopped):
  // parsing 63 MB in this process while it times the writer would add its own stall to their latencies.
  const exportOnce = () =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const req = http.request(
        {
          host: new URL(base).hostname,
          port: new URL(base).port,
          path: `/v2/export/${project}/bench`,
          agent,
          headers: { authorization: `Bearer ${adminKey}` },
        },
        (res) => {
          const chunks = [];
          let bytes = 0;
          res.on('data', (c) => {
            chunks.push(c);
            bytes += c.length;
          });
          res.on('end', () => {
            const ms = performance.now() - started;
            if (res.statusCode !== 200)
              return reject(new Error(`export: ${res.statusCode} ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`));
            let lines;
            resolve({
              ms,
              bytes,
              get lines() {
                lines ??= parse(Buffer.concat(chunks).toString('utf8'));
                return lines;
              },
            });
          });
        },
      );
      req.on('error', reject);
      req.end();
    });

  const ready = JSON.parse((await call(base, adminKey, 'GET', '/readyz')).text);
  console.log(
    `walk: ${ready.walk} (${ready.walk_reason}); EXPORT_HOLD_MS ${process.env.EXPORT_HOLD_MS}, DB_TIMEOUT_MS ${process.env.DB_TIMEOUT_MS}`,
  );
  // Warm-up: a Neo4j just started plans each write's statements the first time (seconds on a busy box).
  for (let i = 0; i < 20; i++) {
    await call(base, ours.secret, 'PUT', `${facts}/users/warm${i % 5}`, { attributes: { level: i } });
    await call(base, ours.secret, 'POST', `${facts}/role_assignments`, {
      user: `warm${i % 5}`,
      role: 'viewer',
      resource_instance: `repo:${ds.repoKeys[i]}`,
      tenant: 'default',
    });
    await call(base, ours.secret, 'DELETE', `${facts}/role_assignments`, {
      user: `warm${i % 5}`,
      role: 'viewer',
      resource_instance: `repo:${ds.repoKeys[i]}`,
      tenant: 'default',
    });
  }
  // 1. Quiet.
  /** The writers' hold of every export so far (ms), from the service's metric. */
  const heldMs = async () => {
    const m = (await call(base, adminKey, 'GET', '/metrics')).text.match(
      /^authz_export_writers_held_seconds_sum\{read="(\w+)"\} ([\d.e+-]+)$/m,
    );
    return m ? Number(m[2]) * 1000 : 0;
  };
  const quiet = await exportOnce();
  const heldQuiet = await heldMs();
  const q0 = quiet.lines[0];
  console.log(
    `quiet export: ${(quiet.ms / 1000).toFixed(2)} s, ${quiet.bytes.toLocaleString('en-US')} bytes, read ${q0.read}, revision ${q0.revision} (load average ${load()})`,
  );

  // 2. The writer: its own users (live*), direct grants on repos, group memberships.
  const model = { users: new Map(), grants: new Set() };
  const log = [];
  const failed = [];
  let n = 0;
  const next = () => {
    const users = [...model.users.keys()];
    const r = Math.random();
    const anyUser = () => users[Math.floor(Math.random() * users.length)];
    if (users.length < 20 || r < 0.25) {
      const key = `${LIVE}${n}`;
      const level = n;
      return { method: 'POST', path: `${facts}/users`, body: { key, attributes: { level } }, apply: (m) => m.users.set(key, level) };
    }
    if (r < 0.35) {
      const key = anyUser();
      const level = n;
      return { method: 'PATCH', path: `${facts}/users/${key}`, body: { attributes: { level } }, apply: (m) => m.users.set(key, level) };
    }
    if (r < 0.45) {
      const key = anyUser();
      return {
        method: 'DELETE',
        path: `${facts}/users/${key}`,
        apply: (m) => {
          m.users.delete(key);
          for (const g of [...m.grants]) if (g.startsWith(`${key}|`)) m.grants.delete(g);
        },
      };
    }
    const user = anyUser();
    const instance =
      r < 0.75
        ? `repo:${ds.repoKeys[Math.floor(Math.random() * ds.repoKeys.length)]}`
        : `group:${ds.groups[Math.floor(Math.random() * ds.groups.length)]}`;
    const role = instance.startsWith('group:') ? 'member' : 'viewer';
    const mine = [...model.grants].filter((g) => g.startsWith(`${user}|`));
    if (mine.length && Math.random() < 0.4) {
      const [, gRole, gInstance] = mine[0].split('|');
      const body = { user, role: gRole, resource_instance: gInstance, tenant: 'default' };
      return { method: 'DELETE', path: `${facts}/role_assignments`, body, apply: (m) => m.grants.delete(`${user}|${gRole}|${gInstance}`) };
    }
    const body = { user, role, resource_instance: instance, tenant: 'default' };
    // Picked again: the model holds it, so it is taken back (a second grant would rightly answer 409).
    if (model.grants.has(`${user}|${role}|${instance}`))
      return { method: 'DELETE', path: `${facts}/role_assignments`, body, apply: (m) => m.grants.delete(`${user}|${role}|${instance}`) };
    return { method: 'POST', path: `${facts}/role_assignments`, body, apply: (m) => m.grants.add(`${user}|${role}|${instance}`) };
  };
  // Writes on one user are made one after the other (their effects then follow the writer's model);
  // users differ between writes in flight.
  const busy = new Set();
  let writing = true;
  const inFlight = new Set();
  const writer = (async () => {
    const t0 = performance.now();
    for (let i = 0; writing; i++) {
      const wait = t0 + (i * 1000) / rate - performance.now();
      if (wait > 0) await new Promise((ok) => setTimeout(ok, wait));
      let w = next();
      for (let tries = 0; tries < 5 && busy.has(w.body?.user ?? w.path.split('/').at(-1)); tries++) w = next();
      const who = w.body?.user ?? (w.method === 'POST' && w.path.endsWith('/users') ? w.body.key : w.path.split('/').at(-1));
      if (busy.has(who)) continue;
      busy.add(who);
      n++;
      // The model moves as the write is sent (later writes are chosen from it); a failure is reported.
      w.apply(model);
      const started = performance.now();
      const p = call(base, ours.secret, w.method, w.path, w.body).then((r) => {
        busy.delete(who);
        if (r.status >= 300 || r.status === 0)
          failed.push({
            started,
            text: `${w.method} ${w.path} ${JSON.stringify(w.body)}: ${r.status} after ${r.ms.toFixed(0)} ms: ${r.text.slice(0, 160)}`,
          });
        else log.push({ started, ms: r.ms, revision: Number(r.headers['x-authz-revision']), apply: w.apply });
        inFlight.delete(p);
      });
      inFlight.add(p);
    }
  })();

  await new Promise((ok) => setTimeout(ok, beforeS * 1000));
  const exportStarted = performance.now();
  const live = await exportOnce();
  const exportEnded = performance.now();
  const heldLive = (await heldMs()) - heldQuiet;
  await new Promise((ok) => setTimeout(ok, 3000));
  writing = false;
  await writer;
  await Promise.all(inFlight);

  const before = log.filter((l) => l.started < exportStarted && l.started >= exportStarted - beforeS * 1000 + 2000).map((l) => l.ms);
  const during = log.filter((l) => l.started >= exportStarted && l.started < exportEnded).map((l) => l.ms);
  // A write started just before the export and answered during it waited too: counted with those during it.
  const overlapping = log.filter((l) => l.started < exportEnded && l.started + l.ms > exportStarted).map((l) => l.ms);
  const h = live.lines[0];
  const end = live.lines.at(-1);
  const failedBefore = failed.filter((f) => f.started < exportStarted).length;
  const failedDuring = failed.filter((f) => f.started >= exportStarted && f.started < exportEnded).length;
  console.log(
    `export under ${rate} writes/s: ${(live.ms / 1000).toFixed(2)} s (quiet ${(quiet.ms / 1000).toFixed(2)} s), read ${h.read}, revision ${h.revision}, end line ${end.type}; writers held ${heldLive.toFixed(0)} ms (quiet ${heldQuiet.toFixed(0)} ms)`,
  );
  const f = (x) => `${x.toFixed(0)} ms`;
  console.log(
    `writers: before the export p50 ${f(pct(before, 50))} p99 ${f(pct(before, 99))} (${before.length} writes); started during it p50 ${f(pct(during, 50))} p99 ${f(pct(during, 99))} max ${f(Math.max(...during))} (${during.length}); every write answered while it ran p99 ${f(pct(overlapping, 99))} max ${f(Math.max(...overlapping))} (${overlapping.length}); failed ${failed.length} of ${n} (${failedBefore} started before the export, ${failedDuring} during it)`,
  );

  // 4. Exactness.
  const problems = [];
  if (h.type !== 'header' || end.type !== 'end' || end.revision !== h.revision)
    problems.push(`its last line: ${JSON.stringify(end).slice(0, 200)}`);
  const nodes = live.lines.filter((l) => l.type === 'node');
  const rels = live.lines.filter((l) => l.type === 'relationship');
  if (end.nodes !== nodes.length || end.relationships !== rels.length)
    problems.push(`end line counts ${end.nodes}/${end.relationships}, lines ${nodes.length}/${rels.length}`);
  log.sort((a, b) => a.revision - b.revision);
  if (new Set(log.map((l) => l.revision)).size !== log.length) problems.push('two writes named the same revision');
  if (!(log.some((l) => l.revision <= h.revision) && log.some((l) => l.revision > h.revision)))
    problems.push('no writes on both sides of the export');
  const at = { users: new Map(), grants: new Set() };
  for (const l of log) if (l.revision <= h.revision) l.apply(at);
  const byId = new Map(nodes.map((x) => [x.props.id, x]));
  const users = new Map(
    nodes
      .filter((x) => x.kind === 'user' && String(x.props.key).startsWith(LIVE))
      .map((x) => [x.props.key, JSON.parse(x.props.attributes_json ?? '{}').level]),
  );
  const grants = new Set(
    rels
      .filter((r) => r.rel === 'HAS_ROLE' && String(byId.get(r.from)?.props.key).startsWith(LIVE) && byId.get(r.from)?.kind === 'user')
      .map((r) => {
        const to = byId.get(r.to)?.props;
        return `${byId.get(r.from).props.key}|${r.props.role}|${to.resource === 'group' || byId.get(r.to)?.kind === 'group' ? 'group' : to.resource}:${to.key}`;
      }),
  );
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  const ju = (m) => [...m].map(([k, v]) => `${k}=${v}`).sort();
  if (!same(ju(users), ju(at.users)))
    problems.push(`users: the export holds ${users.size}, the writes up to its revision ${at.users.size}`);
  if (!same([...grants].sort(), [...at.grants].sort()))
    problems.push(`grants: the export holds ${grants.size}, the writes up to its revision ${at.grants.size}`);
  // Everything else is as quiet: records and links not of the writer's users, by count.
  const others = (lines) => lines.filter((l) => !(l.type === 'node' && String(l.props.key).startsWith(LIVE) && l.kind === 'user')).length;
  const otherRels = (ls, ids) => ls.filter((l) => l.type === 'relationship' && !ids.has(l.from)).length;
  const liveIds = new Set(nodes.filter((x) => x.kind === 'user' && String(x.props.key).startsWith(LIVE)).map((x) => x.props.id));
  if (others(quiet.lines.filter((l) => l.type === 'node')) !== others(nodes))
    problems.push("records other than the writer's differ from the quiet export");
  if (otherRels(quiet.lines, new Set()) !== otherRels(live.lines, liveIds))
    problems.push("links other than the writer's differ from the quiet export");
  console.log(
    `exact at revision ${h.revision}: ${problems.length ? `NO (${problems.join('; ')})` : 'yes'}: the writer's ${at.users.size} users and ${at.grants.size} grants and memberships of the ${log.filter((l) => l.revision <= h.revision).length} writes at or before it, none of the ${log.filter((l) => l.revision > h.revision).length} after; ${nodes.length} records + ${rels.length} links (quiet: ${quiet.lines.length - 2} lines). Load average ${load()}`,
  );
  for (const x of failed.slice(0, 5)) console.log(`failed: ${x.text}`);
  if (problems.length || failed.length) process.exitCode = 1;
} finally {
  await ours.stop();
}

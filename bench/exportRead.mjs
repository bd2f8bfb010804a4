// Where the time of an export's held read goes, on the bench dataset (bench/dataset.mjs, 193,800
// facts at BENCH_SCALE=1): `npm run build && node bench/exportRead.mjs` (alone on the box: it
// starts a Neo4j). Loads the dataset through the API (bench/ours.mjs), then reads the environment as
// the Cypher export does (cypher/export/nodes.cypher, relationships.cypher), three ways:
// - Neo4j alone: each statement wrapped in `CALL { ... } RETURN count(*)` with every property map
//   built and measured (no row leaves Neo4j);
// - Bolt and decoding: the statement's rows pulled by the driver into objects (its wall time, and the
//   CPU of this process meanwhile: the driver's decoding);
// - formatting: the export's lines made from those rows (JSON), in JS;
// and, with the walk extension loaded, its export procedure (graphauthz.exportChunk) the same way.
// Then one quiet export over HTTP (GET /v2/export). BENCH_KEEP_NEO4J=1 keeps the data between runs
// (the dataset is then loaded once).
import { join } from 'node:path';
import neo4j from 'neo4j-driver';
import { readFileSync } from 'node:fs';
import { buildDataset } from './dataset.mjs';
import { client } from './http.mjs';
import { loadOurs, root, startOurs } from './ours.mjs';

const scale = Number(process.env.BENCH_SCALE ?? 1);
const neo4jPort = Number(process.env.TEST_NEO4J_PORT ?? process.env.BENCH_NEO4J_PORT ?? 7746);
const port = Number(process.env.BENCH_PORT ?? neo4jPort + 10_400);
const strip = (file) =>
  readFileSync(join(root, 'cypher', file), 'utf8')
    .split('\n')
    .filter((l) => !l.trim().startsWith('//'))
    .join('\n');

const ours = await startOurs({ port, neo4jPort, concurrency: 16 });
try {
  const admin = client(ours.base, ours.adminKey, 4);
  const users = await ours.api('GET', `/v2/facts/${ours.project}/bench/users?per_page=1`);
  if (!((users.total_count ?? users.total ?? 0) > 1)) {
    const ds = buildDataset({
      users: Math.round(10_000 * scale),
      chains: Math.max(10, Math.round(200 * scale)),
      repos: Math.round(20_000 * scale),
    });
    const load = await loadOurs(ours.api, ours.project, ds, { loaders: 2 });
    console.log(`loaded ${load.facts} facts in ${load.seconds.toFixed(1)} s`);
  }
  const envs = await admin('GET', `/v2/projects/${ours.project}/envs`);
  const env = (Array.isArray(envs) ? envs : envs.data).find((e) => e.key === 'bench').id;
  const driver = neo4j.driver(`bolt://127.0.0.1:${neo4jPort}`, undefined, { disableLosslessIntegers: false });
  const session = driver.session({ fetchSize: 10_000 });
  const time = async (f) => {
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    const out = await f();
    const c = process.cpuUsage(c0);
    return { out, wall: Number(process.hrtime.bigint() - t0) / 1e9, cpu: (c.user + c.system) / 1e6 };
  };
  const nodes = strip('export/nodes.cypher');
  const rels = strip('export/relationships.cypher');
  const wrapN = `CALL () { ${nodes} } RETURN count(*) AS n, sum(size(keys(props))) AS k`;
  const wrapR = `CALL () { ${rels} } RETURN count(*) AS n, sum(size(keys(props))) AS k`;
  const plain = (p) =>
    Object.fromEntries(
      Object.entries(p)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, neo4j.isInt(v) ? v.toNumber() : v]),
    );
  for (let round = 1; round <= 3; round++) {
    const n1 = await time(() => session.run(wrapN, { env }));
    const r1 = await time(() => session.run(wrapR, { env }));
    const n2 = await time(async () => (await session.run(nodes, { env })).records.map((r) => r.toObject()));
    const r2 = await time(async () => (await session.run(rels, { env })).records.map((r) => r.toObject()));
    const f = await time(() => {
      let bytes = 0;
      for (const row of n2.out)
        bytes += JSON.stringify({ type: 'node', kind: 'x', labels: row.labels, props: plain(row.props) }).length + 1;
      for (const row of r2.out)
        bytes += JSON.stringify({ type: 'relationship', rel: row.type, from: row.from, to: row.to, props: plain(row.props) }).length + 1;
      return bytes;
    });
    console.log(
      `round ${round}: ${n2.out.length} records + ${r2.out.length} links (${f.out.toLocaleString('en-US')} bytes of lines). ` +
        `Neo4j alone: records ${n1.wall.toFixed(2)} s, links ${r1.wall.toFixed(2)} s; ` +
        `pulled into objects: records ${n2.wall.toFixed(2)} s (this process's CPU ${n2.cpu.toFixed(2)} s), links ${r2.wall.toFixed(2)} s (CPU ${r2.cpu.toFixed(2)} s); ` +
        `lines formatted: ${f.wall.toFixed(2)} s`,
    );
    const procs = (
      await session.run("SHOW PROCEDURES YIELD name WHERE name STARTS WITH 'graphauthz.export' RETURN collect(name) AS p")
    ).records[0].get('p');
    if (procs.includes('graphauthz.exportParts')) {
      const x = await time(async () => {
        const res = await session.run(
          'CALL graphauthz.exportParts($env, 1000000, 60000) YIELD revision, heldMs, section, part, lines RETURN revision, heldMs, section, part, lines',
          { env },
        );
        return res.records.map((r) => r.toObject());
      });
      const chars = x.out.reduce((a, p) => a + p.part.length, 0);
      const f2 = await time(() => {
        const lines = [];
        for (const p of x.out) {
          if (p.section === 'relationships') lines.push(p.part);
          else
            for (const l of p.part.split('\n')) {
              const tab = l.indexOf('\t');
              lines.push(`{"type":"node","kind":"x","labels":${l.slice(0, tab)},"props":${l.slice(tab + 1)}}`);
            }
        }
        return lines.length;
      });
      console.log(
        `  extension: writers held ${x.out[0]?.heldMs} ms; ${x.out.length} parts, ${chars.toLocaleString('en-US')} chars in ${x.wall.toFixed(2)} s (CPU here ${x.cpu.toFixed(2)} s); node lines made after: ${f2.wall.toFixed(2)} s`,
      );
      if (round === 1) {
        // The same lines as the Cypher read, property order aside.
        const canon = (o) =>
          JSON.stringify(o, (_k, v) =>
            v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v,
          );
        const a = new Set();
        for (const row of n2.out) a.add(canon({ labels: row.labels, props: plain(row.props) }));
        for (const row of r2.out) a.add(canon({ rel: row.type, from: row.from, to: row.to, props: plain(row.props) }));
        let same = 0;
        let differ = 0;
        for (const p of x.out)
          for (const l of p.part.split('\n')) {
            let o;
            if (p.section === 'relationships') {
              const j = JSON.parse(l);
              o = { rel: j.rel, from: j.from, to: j.to, props: j.props };
            } else {
              const tab = l.indexOf('\t');
              o = { labels: JSON.parse(l.slice(0, tab)), props: JSON.parse(l.slice(tab + 1)) };
            }
            if (a.has(canon(o))) same++;
            else if (differ++ < 3) console.log('  differs:', l.slice(0, 300));
          }
        console.log(`  extension lines equal to Cypher's: ${same} of ${a.size} (${differ} differ)`);
        if (differ || same !== n2.out.length + r2.out.length) process.exitCode = 1;
      }
    }
  }
  await session.close();
  await driver.close();
  const e = await time(() => admin('GET', `/v2/export/${ours.project}/bench`));
  console.log(`quiet export over HTTP: ${e.wall.toFixed(2)} s, ${String(e.out).length.toLocaleString('en-US')} chars`);
} finally {
  await ours.stop();
}

// First render of a 500-node neighbourhood in Debian's chromium: the console's GraphView
// (ring positions, labels on demand) against a baseline measured in the same run, cytoscape's
// stock concentric layout with every label. Prints the ratio; absolute times depend on the load.
// Usage: node bench/console-render.mjs [nodes=500] [rounds=5]
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

const { findBrowser } = createRequire(import.meta.url)('../scripts/browser-path.cjs');

const nodes = Number(process.argv[2] ?? 500);
const rounds = Number(process.argv[3] ?? 5);
const dir = mkdtempSync(join(tmpdir(), 'console-bench-'));
const entry = `
import cytoscape from 'cytoscape';
import { GraphView } from ${JSON.stringify(join(process.cwd(), 'console/src/graph.ts'))};
function graph(n) {
  const g = { nodes: [{ id: 'u', labels: ['User'], key: 'hub', resource: null, tenant: null }], edges: [], truncated: false, limit: n };
  for (let i = 1; i < n; i++) {
    const group = i % 10 === 0;
    g.nodes.push({ id: 'n' + i, labels: group ? ['Group', 'Instance'] : ['Instance'], key: 'k' + i, resource: group ? 'group' : 'doc', tenant: 'default' });
    const from = i < 50 ? 'u' : 'n' + (Math.floor(i / 10) * 10 || 10);
    g.edges.push({ id: 'e' + i, type: i % 10 === 0 ? 'HAS_ROLE' : 'RELATED', from, to: 'n' + i, role: i % 10 === 0 ? 'member' : null, relation: i % 10 ? 'parent' : null });
  }
  return g;
}
function fresh() { const el = document.getElementById('g'); el.replaceChildren(); return el; }
window.console_view = async (n) => { const el = fresh(); const v = new GraphView(el); const t0 = performance.now(); await v.show(graph(n), 'user:hub'); return performance.now() - t0; };
window.baseline = async (n) => {
  const g = graph(n); const el = fresh(); const t0 = performance.now();
  const cy = cytoscape({ container: el, style: [{ selector: 'node', style: { label: 'data(id)' } }, { selector: 'edge', style: { label: 'data(label)' } }] });
  cy.add([...g.nodes.map((x) => ({ data: { id: x.id } })), ...g.edges.map((e) => ({ data: { id: e.id, source: e.from, target: e.to, label: e.role ?? e.relation } }))]);
  await new Promise((done) => { cy.one('render', () => done()); cy.layout({ name: 'concentric', animate: false, concentric: (x) => x.degree() }).run(); });
  return performance.now() - t0;
};`;
writeFileSync(join(dir, 'entry.js'), entry);
await build({
  entryPoints: [join(dir, 'entry.js')],
  bundle: true,
  outfile: join(dir, 'b.js'),
  format: 'iife',
  logLevel: 'warning',
  nodePaths: [join(process.cwd(), 'node_modules')],
});
writeFileSync(
  join(dir, 'index.html'),
  '<!doctype html><body style="margin:0"><div id="g" style="width:1000px;height:760px"></div><script src="b.js"></script>',
);

const ctx = await chromium.launchPersistentContext(join(dir, 'profile'), {
  executablePath: findBrowser() ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await ctx.newPage();
await page.goto(`file://${join(dir, 'index.html')}`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs = { console: [], baseline: [] };
await page.evaluate((n) => window.console_view(n), nodes); // warm-up: parse and JIT
await page.evaluate((n) => window.baseline(n), nodes);
for (let r = 0; r < rounds; r++) {
  runs.console.push(await page.evaluate((n) => window.console_view(n), nodes));
  runs.baseline.push(await page.evaluate((n) => window.baseline(n), nodes));
}
await ctx.close();
rmSync(dir, { recursive: true, force: true });
const c = median(runs.console);
const b = median(runs.baseline);
console.log(
  JSON.stringify({
    nodes,
    rounds,
    console_median_ms: Math.round(c),
    baseline_concentric_all_labels_median_ms: Math.round(b),
    ratio: +(c / b).toFixed(2),
  }),
);

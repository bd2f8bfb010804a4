// Conditions (docs/behaviour.md section 17): what a check costs without set rules and with them, in one run.
//  1. "no rules": checks of a graph-decided case in an environment without set rules (each answer
//     read from the graph: fully_consistent), the cost every environment without ABAC keeps;
//  2. "rule, denied by the graph": questions the role graph denies and a set rule decides on the
//     user's stored attributes, the instance's and the question's context (the evaluator runs);
//  3. "no rules" again after the rule is removed (the per-revision rules cache is empty again).
//   npm run build && node bench/conditions.mjs
import { buildDataset, buildQuestions } from './dataset.mjs';
import { measure } from './http.mjs';
import { loadOurs, startOurs } from './ours.mjs';

const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const count = Number(process.env.BENCH_REQUESTS ?? 2000);
const port = Number(process.env.BENCH_PORT ?? 18195);
const ours = await startOurs({ port, neo4jPort: Number(process.env.BENCH_NEO4J_PORT ?? 7765), concurrency });
try {
  const ds = buildDataset({ users: 500, chains: 10, repos: 1000 });
  await loadOurs(ours.api, ours.project, ds, { loaders: 2 });
  const schema = `/v2/schema/${ours.project}/bench`;
  const facts = `/v2/facts/${ours.project}/bench`;
  const path = `/v2/allowed/${ours.project}/bench`;
  const graphCase = buildQuestions(ds, count)['direct role'];
  const ask = (q, extra = {}) =>
    ours.api('POST', path, { user: q.user, action: q.action, resource: q.resource, consistency: 'fully_consistent', ...extra });
  const run = async (name, qs, extra, expect) => {
    await measure(qs.slice(0, 200), concurrency, (q) => ask(q, extra)); // warm-up
    let wrong = 0;
    const r = await measure(qs, concurrency, async (q) => {
      const { allow } = await ask(q, extra);
      if (expect !== undefined && allow !== expect) wrong++;
    });
    console.log(
      `${name.padEnd(28)} ${r.perSecond.toFixed(0)} checks/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  wrong ${wrong}`,
    );
    return r;
  };
  const before = await run('no rules (graph grants)', graphCase, {}, true);

  // A user attribute on every user, a resource set over repos, a rule granting push on the office network.
  await ours.api('POST', `${schema}/resources/__user/attributes`, { key: 'department', type: 'string' });
  await ours.api('POST', `${schema}/resources/repo/attributes`, { key: 'visibility', type: 'string' });
  await ours.api('POST', `${schema}/condition_sets`, {
    key: 'engineering',
    name: 'Engineering on the office network',
    conditions: { allOf: [{ 'user.key': { 'not-equals': 'nobody' } }, { 'context.network': { equals: 'office' } }] },
  });
  await ours.api('POST', `${schema}/condition_sets`, {
    key: 'repos',
    name: 'Repositories',
    type: 'resourceset',
    resource_id: 'repo',
    conditions: {},
  });
  const rule = { user_set: 'engineering', permission: 'repo:push', resource_set: 'repos' };
  await ours.api('POST', `${facts}/set_rules`, rule);
  const ruleCase = graphCase.map((q) => ({ ...q, action: 'push' }));
  await run('rules, graph grants', graphCase, {}, true);
  await run('rule decides (allowed)', ruleCase, { context: { network: 'office' } }, true);
  await run('rule decides (denied)', ruleCase, { context: { network: 'home' } }, undefined);
  await ours.api('DELETE', `${facts}/set_rules`, rule);
  const after = await run('no rules again', graphCase, {}, true);
  console.log(`no rules, after / before: ${(after.perSecond / before.perSecond).toFixed(2)}x`);
} finally {
  await ours.stop();
}

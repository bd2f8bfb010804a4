// Reads a V8 CPU profile (`node --cpu-prof`, e.g. the service's under bench/cachedPath.mjs) and
// prints the functions with the most self time and the most inclusive time, as shares of the
// busy samples (idle and GC shown apart), and optionally the inclusive share of named functions.
//   node bench/profileTop.mjs <file.cpuprofile> [top=30] [name ...] [--between=<from>-<to>]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const between = args.find((a) => a.startsWith('--between='));
const [file, topArg, ...names] = args.filter((a) => a !== between);
// --between=<from>-<to>: only the samples in that window (µs of the monotonic clock, as bench/cachedPath.mjs prints with BENCH_MARKS).
const [from, to] = between ? between.slice('--between='.length).split('-').map(Number) : [-Infinity, Infinity];
if (!file) throw new Error('usage: node bench/profileTop.mjs <file.cpuprofile> [top] [function name ...]');
const top = Number(topArg ?? 30);
const prof = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
let at = prof.startTime;
for (let i = 0; i < prof.samples.length; i++) {
  at += prof.timeDeltas[i] ?? 0;
  if (at < from || at > to) continue;
  const id = prof.samples[i];
  self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0));
}
const label = (n) => {
  const f = n.callFrame;
  const where = f.url ? `${f.url.replace(/^file:\/\//, '').replace(/.*\/(node_modules|dist)\//, '$1/')}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'} ${where}`.trim();
};
const total = [...self.values()].reduce((a, b) => a + b, 0);
const special = (n) => ['(idle)', '(program)', '(garbage collector)', '(root)'].includes(n.callFrame.functionName);
let idle = 0;
let gc = 0;
let program = 0;
const selfBy = new Map();
const inclBy = new Map();
for (const [id, us] of self) {
  const n = byId.get(id);
  if (n.callFrame.functionName === '(idle)') idle += us;
  else if (n.callFrame.functionName === '(garbage collector)') gc += us;
  else if (n.callFrame.functionName === '(program)') program += us;
  if (special(n)) continue;
  selfBy.set(label(n), (selfBy.get(label(n)) ?? 0) + us);
  // Inclusive: each label once per sample stack (recursion counted once).
  const seen = new Set();
  for (let p = id; p !== undefined; p = parent.get(p)) {
    const l = label(byId.get(p));
    if (special(byId.get(p)) || seen.has(l)) continue;
    seen.add(l);
    inclBy.set(l, (inclBy.get(l) ?? 0) + us);
  }
}
const busy = total - idle;
const pct = (us) => `${((us / busy) * 100).toFixed(1).padStart(5)} %`;
console.log(
  `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (${((busy / total) * 100).toFixed(0)} %); of busy: GC ${pct(gc).trim()}, (program) ${pct(program).trim()}`,
);
console.log(`\ntop ${top} by self time (share of busy):`);
for (const [l, us] of [...selfBy].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${l}`);
console.log(`\ntop ${top} by inclusive time:`);
for (const [l, us] of [...inclBy].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${l}`);
if (names.length) {
  console.log('\nnamed (inclusive, every definition of the name):');
  for (const name of names) {
    const us = [...inclBy].filter(([l]) => l.split(' ')[0] === name).reduce((a, [, v]) => a + v, 0);
    console.log(`${pct(us)}  ${name}`);
  }
}

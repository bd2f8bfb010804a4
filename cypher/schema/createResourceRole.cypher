// @invalidates $env
// @changes resource_role:create
// @row { key: string }
MATCH (r:Resource {env: $env, key: $resource})
CREATE (rr:ResourceRole:InEnv {env: $env, id: $id, resource: r.key, key: $key, name: $name, description: $description,
                               declared_permissions: $permissions, permissions: $permissions,
                               created_at: $nowIso, updated_at: $nowIso})
CREATE (r)-[:HAS_ROLE]->(rr)
WITH rr AS role
// #include fragments/expandPermissions
RETURN role.key AS key

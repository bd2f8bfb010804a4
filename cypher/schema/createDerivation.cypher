// @invalidates $env
// @changes role_derivation:create
// @row { derivation: DerivationNode }
MATCH (rel:Relation {env: $env, resource: $resource, key: $relation})
CREATE (d:Derivation:InEnv {env: $env, id: $id, resource: $resource, role: $role, on_resource: $on_resource,
                            from_role: $from_role, relation: $relation,
                            no_direct_roles_on_object: $no_direct_roles_on_object, created_at: $nowIso})
CREATE (d)-[:DERIVES]->(rel)
// #include fragments/derivationRecord
RETURN derivationRecord AS derivation

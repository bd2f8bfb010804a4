// Fragment: a derivation `d` as Permit's DerivedRoleRuleRead needs it: its own properties and the
// ids of what it names: `role_id` (the role required on `on_resource`: a resource role of that
// resource, else the tenant role of that key), `resource_id` (the `on_resource` resource),
// `relation_id` (the relation on `resource`). Needs: $env, `d`. Binds: `derivationRecord`.
WITH *, d {.*,
  role_id: coalesce(
    head(COLLECT { MATCH (x:ResourceRole {env: $env, resource: d.on_resource, key: d.from_role}) RETURN x.id }),
    head(COLLECT { MATCH (x:Role {env: $env, key: d.from_role}) RETURN x.id })),
  resource_id: head(COLLECT { MATCH (x:Resource {env: $env, key: d.on_resource}) RETURN x.id }),
  relation_id: head(COLLECT { MATCH (x:Relation {env: $env, resource: d.resource, key: d.relation}) RETURN x.id })
} AS derivationRecord

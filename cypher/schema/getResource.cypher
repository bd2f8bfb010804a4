// @row { resource: ResourceNode }
// A resource with its roles (and their derivations), the keys of its action groups and relations; by the reference rule (key, else id).
OPTIONAL MATCH (byKey:Resource {env: $env, key: $ref})
OPTIONAL MATCH (byId:Resource {id: $ref}) WHERE byId.env = $env
// #include fragments/keyElseId
WITH referenced AS r WHERE r IS NOT NULL
RETURN r {.*,
  roles: COLLECT {
    MATCH (rr:ResourceRole {env: $env, resource: r.key})
    RETURN rr {.*, derivations: COLLECT {
      MATCH (d:Derivation {env: $env, resource: r.key, role: rr.key})
      // #include fragments/derivationRecord
      RETURN derivationRecord ORDER BY d.on_resource, d.from_role, d.relation
    }} ORDER BY rr.key
  },
  action_groups: COLLECT { MATCH (g:ActionGroup {env: $env, resource: r.key}) RETURN g.key ORDER BY g.key },
  relations: COLLECT {
    MATCH (rel:Relation {env: $env, resource: r.key})
    OPTIONAL MATCH (s:Resource {env: $env, key: rel.subject_resource})
    RETURN rel {.*, subject_resource_id: s.id} ORDER BY rel.key
  }
} AS resource

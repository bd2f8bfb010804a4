// A resource with its roles (and their derivations) and relations; by key or id.
CALL {
  MATCH (r:Resource {env: $env, key: $ref}) RETURN r
  UNION
  MATCH (r:Resource {id: $ref}) WHERE r.env = $env RETURN r
}
WITH r LIMIT 1
RETURN r {.*,
  roles: COLLECT {
    MATCH (rr:ResourceRole {env: $env, resource: r.key})
    RETURN rr {.*, derivations: COLLECT {
      MATCH (d:Derivation {env: $env, resource: r.key, role: rr.key}) RETURN d {.*} ORDER BY d.on_resource, d.from_role, d.relation
    }} ORDER BY rr.key
  },
  relations: COLLECT {
    MATCH (rel:Relation {env: $env, resource: r.key})
    OPTIONAL MATCH (s:Resource {env: $env, key: rel.subject_resource})
    RETURN rel {.*, subject_resource_id: s.id} ORDER BY rel.key
  }
} AS resource

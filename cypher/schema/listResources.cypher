// @row { total: number; data: ResourceNode[] }
// `key IS NOT NULL` (always true): an index seek on the environment's entries, not a scan of every environment's.
MATCH (r:Resource {env: $env}) WHERE r.key IS NOT NULL
WITH * WHERE $search IS NULL OR toLower(r.key) CONTAINS toLower($search) OR toLower(coalesce(r.name, '')) CONTAINS toLower($search)
WITH r ORDER BY r.created_at, r.key
WITH collect(r) AS items
WITH size(items) AS total, items[$skip..($skip + $limit)] AS page
CALL (page) {
  UNWIND page AS r
  RETURN collect(r {.*,
    roles: COLLECT {
      MATCH (rr:ResourceRole {env: $env, resource: r.key})
      RETURN rr {.*, derivations: COLLECT {
        MATCH (d:Derivation {env: $env, resource: r.key, role: rr.key})
        // #include fragments/derivationRecord
        RETURN derivationRecord ORDER BY d.on_resource, d.from_role, d.relation
      }} ORDER BY rr.key
    },
    relations: COLLECT {
      MATCH (rel:Relation {env: $env, resource: r.key}) WHERE rel.key IS NOT NULL
      OPTIONAL MATCH (s:Resource {env: $env, key: rel.subject_resource})
      RETURN rel {.*, subject_resource_id: s.id} ORDER BY rel.key
    }
  }) AS data
}
RETURN total, data

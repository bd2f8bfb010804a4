// `key IS NOT NULL` (always true): an index seek on the environment's entries, not a scan of every environment's.
MATCH (s:Instance {env: $env})-[r:RELATED]->(o:Instance) WHERE s.resource IS NOT NULL AND s.key IS NOT NULL
WITH * WHERE ($subject_type IS NULL OR s.resource = $subject_type) AND ($subject_key IS NULL OR s.key = $subject_key)
  AND ($object_type IS NULL OR o.resource = $object_type) AND ($object_key IS NULL OR o.key = $object_key)
  AND ($relation IS NULL OR r.relation = $relation) AND ($tenant IS NULL OR r.tenant = $tenant)
WITH s, r, o ORDER BY r.created_at, s.resource, s.key, r.relation, o.resource, o.key
WITH collect({id: elementId(r), subject: s.resource + ':' + s.key, relation: r.relation, object: o.resource + ':' + o.key,
              tenant: r.tenant, created_at: r.created_at}) AS items
RETURN size(items) AS total, items[$skip..($skip + $limit)] AS data

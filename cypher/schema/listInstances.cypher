// @row { total: number; data: InstanceNode[] }
// `key IS NOT NULL` (always true): an index seek on the environment's entries, not a scan of every environment's.
MATCH (i:Instance {env: $env}) WHERE i.resource IS NOT NULL AND i.key IS NOT NULL
WITH * WHERE ($tenant IS NULL OR i.tenant = $tenant)
  AND ($resource IS NULL OR i.resource = $resource)
  AND ($search IS NULL OR toLower(i.key) CONTAINS toLower($search))
WITH i ORDER BY i.created_at, i.resource, i.key
WITH collect(i) AS items
WITH size(items) AS total, items[$skip..($skip + $limit)] AS page
RETURN total, [i IN page | i {.*,
  resource_id: head(COLLECT { MATCH (r:Resource {env: $env, key: i.resource}) RETURN r.id }),
  tenant_id: head(COLLECT { MATCH (t:Tenant {env: $env, key: i.tenant}) RETURN t.id })
}] AS data

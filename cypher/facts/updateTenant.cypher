// @invalidates $env
// @changes tenant:update
// @row { tenant: TenantNode; before: TenantNode; after: TenantNode }
MATCH (t:Tenant {env: $env, key: $key})
WITH t, t {.*} AS before
SET t.name = coalesce($name, t.name),
    t.description = CASE WHEN $setDescription THEN $description ELSE t.description END,
    t.attributes_json = coalesce($attributes, t.attributes_json),
    t.updated_at = $nowIso
RETURN t {.*} AS tenant, before, t {.*} AS after

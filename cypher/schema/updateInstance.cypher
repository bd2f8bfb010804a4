// @invalidates $env
// @changes resource_instance:update
// @row { key: string; before: StoredInstance; after: StoredInstance }
MATCH (i:Instance {env: $env, resource: $resource, key: $key})
WITH i, i {.*} AS before
SET i.attributes_json = coalesce($attributes, i.attributes_json), i.updated_at = $nowIso
RETURN i.key AS key, before, i {.*} AS after

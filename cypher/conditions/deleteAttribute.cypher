// @invalidates $env
// @changes resource_attribute:delete
// @row { key: string }
// Writes a resource's attribute map (the caller read it under the resource's lock and changed one
// attribute: $before / $after are that attribute's states, for the change event).
MATCH (r:Resource {env: $env, key: $resource})
SET r.attributes_json = $attributes_json, r.updated_at = $nowIso
RETURN r.key AS key, $before AS before, $after AS after

// @invalidates $env
// @changes group:update
// @row { key: string; before: GroupNode; after: GroupNode }
MATCH (g:Group {env: $env, key: $key})
WITH g, g {.*} AS before
SET g.name = CASE WHEN $setName THEN $name ELSE g.name END,
    g.description = CASE WHEN $setDescription THEN $description ELSE g.description END,
    g.attributes_json = coalesce($attributes, g.attributes_json),
    g.updated_at = $nowIso
RETURN g.key AS key, before, g {.*} AS after

// @row { total: number; data: ActionGroupNode[] }
// The action groups of resource $resource (a key), oldest first, one page.
MATCH (r:Resource {env: $env, key: $resource})
OPTIONAL MATCH (g:ActionGroup {env: $env, resource: r.key})
WITH r, g ORDER BY g.created_at, g.key
WITH r, collect(g) AS items
RETURN size(items) AS total, [g IN items[$skip..($skip + $limit)] | g {.*, resource_id: r.id}] AS data

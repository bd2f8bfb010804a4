// @row { total: number; data: { resource: string; resource_instance: string; role: string; tenant: string }[] }
// The roles the group's members get directly: tuples from the group joined with the derivations
// from (<type>, member) over their relation; group-to-group links are not roles.
MATCH (g:Group {env: $env, key: $group})-[x:RELATED]->(i:Instance)
WHERE x.relation <> 'group'
MATCH (d:Derivation {env: $env, resource: i.resource, on_resource: g.resource, from_role: 'member', relation: x.relation})
WITH DISTINCT i.resource AS resource, i.key AS instance, d.role AS role, coalesce(x.tenant, i.tenant) AS tenant
ORDER BY resource, instance, role
WITH collect({resource: resource, resource_instance: instance, role: role, tenant: tenant}) AS items
RETURN size(items) AS total, items[$skip..($skip + $limit)] AS data

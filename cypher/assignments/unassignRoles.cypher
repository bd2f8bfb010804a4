// @invalidates $env
// Removes the role assignments of $items that exist: tenant roles (no instance) and instance
// roles (in the item's tenant); answers how many.
UNWIND $items AS a
OPTIONAL MATCH (:User {env: $env, key: a.user})-[t:HAS_TENANT_ROLE {role: a.role}]->(:Tenant {env: $env, key: a.tenant})
WHERE a.instance IS NULL
OPTIONAL MATCH (:User {env: $env, key: a.user})-[r:HAS_ROLE {role: a.role}]->(i:Instance {env: $env, resource: a.resource, key: a.instance})
WHERE coalesce(r.tenant, i.tenant) = a.tenant
WITH collect(DISTINCT t) + collect(DISTINCT r) AS found
FOREACH (e IN found | DELETE e)
RETURN size(found) AS removed

// @invalidates $env
// @changes tenant:create
// @row { created: number }
// Permit's bulk create (POST bulk/tenants): one CREATE per item, so an existing key fails the
// whole transaction on the unique constraint (all or nothing).
UNWIND $items AS x
CREATE (t:Tenant:InEnv {env: $env, id: randomUUID(), key: x.key, name: x.name, description: x.description,
                        attributes_json: x.attributes, created_at: $nowIso, updated_at: $nowIso})
RETURN count(t) AS created

// The one owner of Instance nodes: every statement that makes a resource instance includes this
// fragment, so an instance has the same labels, defaults and tenant link wherever it is made.
// In scope before it: `inst` (a map {resource, key, attributes?: JSON text}) and `tenant` (the
// Tenant node the instance goes in). Binds `i` (the instance: found, or made now) and
// `madeInstance` (true when this statement made it). A found instance keeps its own tenant:
// the includer compares `i.tenant` with `tenant.key` and refuses a mismatch (409), and a
// statement that must make a new one (groups, single create) refuses `NOT madeInstance`.
// MERGE on the instance_key constraint keeps concurrent makers from making two.
WITH *, randomUUID() AS newInstanceId
MERGE (i:Instance {env: $env, resource: inst.resource, key: inst.key})
  ON CREATE SET i:InEnv, i.id = newInstanceId, i.tenant = tenant.key, i.attributes_json = coalesce(inst.attributes, '{}'),
                i.created_at = $nowIso, i.updated_at = $nowIso
WITH *, i.id = newInstanceId AS madeInstance
FOREACH (_ IN CASE WHEN madeInstance THEN [1] ELSE [] END | CREATE (i)-[:IN_TENANT]->(tenant))

// @invalidates $env
// Resource group: roles held on the group apply to $resource:$instance. The instance is made in
// the group's tenant if missing; the caller checks instanceTenant and rolls back on a mismatch.
MATCH (g:Group {env: $env, key: $group})
MATCH (t:Tenant {env: $env, key: g.tenant})
MATCH (res:Resource {env: $env, key: $resource})
MERGE (i:Instance:InEnv {env: $env, resource: $resource, key: $instance})
  ON CREATE SET i.id = $instanceId, i.tenant = g.tenant, i.attributes_json = '{}', i.created_at = $now, i.updated_at = $now
FOREACH (_ IN CASE WHEN i.tenant = g.tenant THEN [1] ELSE [] END | MERGE (i)-[:IN_TENANT]->(t))
MERGE (g)-[x:GROUPS]->(i)
  ON CREATE SET x.tenant = g.tenant, x.created_at = $now
RETURN i.tenant AS instanceTenant

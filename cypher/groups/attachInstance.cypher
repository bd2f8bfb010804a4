// @invalidates $env
// @changes group_resource:create
// @row { instanceTenant: string }
// Resource group: roles held on the group apply to $resource:$instance. The instance is made in
// the group's tenant if missing; the caller checks instanceTenant and rolls back on a mismatch.
MATCH (g:Group {env: $env, key: $group})
MATCH (tenant:Tenant {env: $env, key: g.tenant})
MATCH (res:Resource {env: $env, key: $resource})
WITH {resource: res.key, key: $instance} AS inst, g, tenant
// #include fragments/ensureInstance
MERGE (g)-[x:GROUPS]->(i)
  ON CREATE SET x.tenant = g.tenant, x.created_at = $nowIso
RETURN i.tenant AS instanceTenant

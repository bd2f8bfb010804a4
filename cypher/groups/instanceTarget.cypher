// @row { resourceExists: boolean; roleExists: boolean; instanceTenant: string | null }
// What a role assignment / attachment on $resource:$instance needs to know before writing.
OPTIONAL MATCH (res:Resource {env: $env, key: $resource})
OPTIONAL MATCH (rr:ResourceRole {env: $env, resource: $resource, key: $role})
OPTIONAL MATCH (r:Role {env: $env, key: $role})
OPTIONAL MATCH (i:Instance {env: $env, resource: $resource, key: $instance})
RETURN res IS NOT NULL AS resourceExists,
       (rr IS NOT NULL OR r IS NOT NULL) AS roleExists,
       i.tenant AS instanceTenant

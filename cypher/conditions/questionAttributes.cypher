// @row { users: { key: string; email: string | null; attributes_json: string | null; tenant_roles: { tenant: string; role: string }[] }[]; instances: { type: string; key: string; tenant: string; attributes_json: string | null }[] }
// The stored attributes a set rule is decided on: the users' ($users: keys), with the tenant
// roles they hold (for is_role rules: fragments/rule/heldTenantRoles), and the instances' ($instances: [{type, key}]).
RETURN COLLECT {
  UNWIND $users AS userKey
  MATCH (u:User {env: $env, key: userKey})
  RETURN {key: u.key, email: u.email, attributes_json: u.attributes_json,
          tenant_roles:
// #include fragments/rule/heldTenantRoles
         }
} AS users,
COLLECT {
  UNWIND $instances AS ref
  MATCH (i:Instance {env: $env, resource: ref.type, key: ref.key})
  RETURN {type: i.resource, key: i.key, tenant: i.tenant, attributes_json: i.attributes_json}
} AS instances

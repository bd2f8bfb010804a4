// @row { users: { key: string; email: string | null; attributes_json: string | null; tenant_roles: { tenant: string; role: string }[] }[] }
// Every user of the environment with its stored attributes and the tenant roles it holds
// (fragments/rule/heldTenantRoles): the candidates of a user set, for authorized users (asked
// only where a set rule grants the permission asked).
RETURN COLLECT {
  MATCH (u:User {env: $env}) WHERE u.key IS NOT NULL
  RETURN {key: u.key, email: u.email, attributes_json: u.attributes_json,
          tenant_roles:
// #include fragments/rule/heldTenantRoles
         } ORDER BY u.key
} AS users

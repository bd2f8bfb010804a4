// @row { tenant: string | null; user: string | null; member: boolean }
// The tenant and user of a login (each by the reference rule: key, else id), and whether the
// user belongs to the tenant.
OPTIONAL MATCH (byKey:Tenant {env: $env, key: $tenant})
OPTIONAL MATCH (byId:Tenant {id: $tenant}) WHERE byId.env = $env
// #include fragments/keyElseId
WITH referenced AS t
OPTIONAL MATCH (byKey:User {env: $env, key: $user})
OPTIONAL MATCH (byId:User {id: $user}) WHERE byId.env = $env
// #include fragments/keyElseId
WITH t, referenced AS u
RETURN t.key AS tenant, u.key AS user,
       t IS NOT NULL AND u IS NOT NULL AND EXISTS { (u)-[:IN_TENANT]->(t) } AS member

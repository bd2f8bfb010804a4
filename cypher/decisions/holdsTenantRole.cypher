// @row { holds: boolean }
// Whether the user holds one of $roles as a tenant role in the tenant (the LEVEL reviewer rule),
// not expired at $nowMs (epoch ms): from its `expires_at` on, an assignment grants nothing, before
// the sweep deletes it too.
RETURN EXISTS {
  MATCH (:User {env: $env, key: $user})-[grant:HAS_TENANT_ROLE]->(:Tenant {env: $env, key: $tenant})
  WHERE grant.role IN $roles AND
// #include fragments/rule/grantIsLive
} AS holds

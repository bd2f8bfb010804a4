// @invalidates $env
// @changes none
// @row none
// A user holding a role in a tenant belongs to it: one IN_TENANT edge per distinct pair of $members.
UNWIND $members AS m
MATCH (u:User {env: $env, key: m.user})
MATCH (t:Tenant {env: $env, key: m.tenant})
WITH DISTINCT u, t
SET u._lock = true
REMOVE u._lock
WITH u, t
// #include fragments/joinTenant

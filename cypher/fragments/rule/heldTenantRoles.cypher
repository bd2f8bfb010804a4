// Rule step: the tenant roles a user holds, for set rules' is_role (docs/behaviour.md section 17). Each live
// tenant role assignment of the user `u` (fragments/rule/grantIsLive) gives its role in its tenant
// and every tenant-level role that role extends (fragments/rule/tenantRoleAncestors), as the role
// graph grants those roles' permissions through EXTENDS.
// An expression: [{tenant, role}], each pair once. Needs: u, $env, $nowMs.
COLLECT {
  MATCH (u)-[grant:HAS_TENANT_ROLE]->(t:Tenant) WHERE
// #include fragments/rule/grantIsLive
  OPTIONAL MATCH (tenantRole:Role {env: $env, key: grant.role})
  UNWIND [grant.role] + CASE WHEN tenantRole IS NULL THEN [] ELSE [extended IN
// #include fragments/rule/tenantRoleAncestors
         | extended.key] END AS role
  RETURN DISTINCT {tenant: t.key, role: role} AS held
}

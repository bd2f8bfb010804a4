// @row { may: boolean }
// Whether the rule could grant the user anything on an instance of the tenant, so that
// per-instance checks (the approvals' `review`) are worth asking. Derived from the rule's steps: a walk starts
// only at a live direct role assignment (fragments/rule/directAssignments: held directly, or a
// group membership; every other step carries a role it already holds), and the only other grant
// is a live tenant role in the tenant (fragments/rule/tenantScopeGrant). With neither, every
// check would deny: they are skipped. (Any live assignment counts, whatever it could reach: the
// exact answer is the checks'.)
OPTIONAL MATCH (u:User {env: $env, key: $user})
RETURN u IS NOT NULL AND (
  EXISTS { MATCH (u)-[grant:HAS_ROLE]->() WHERE
// #include fragments/rule/grantIsLive
  }
  OR EXISTS { MATCH (u)-[grant:HAS_TENANT_ROLE]->(:Tenant {env: $env, key: $tenant}) WHERE
// #include fragments/rule/grantIsLive
  }
) AS may

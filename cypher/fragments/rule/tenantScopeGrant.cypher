// Rule step: tenant scope. A tenant role assignment (`grant`, a HAS_TENANT_ROLE edge from a user
// to a tenant) gives the action on every instance of the type in that tenant (and on the tenant
// itself, for a question without an instance) when its role is one of tenantRolesGranting (the
// tenant-level roles whose permissions, or those of the roles they extend, name the action on the
// type: fragments/rolesOnType) and it is live (fragments/rule/grantIsLive).
// An expression (a predicate) on the edge bound as `grant`; each statement anchors the pattern
// itself (the user's edges, or a tenant's). Needs: tenantRolesGranting, $nowMs.
(grant.role IN tenantRolesGranting AND
// #include fragments/rule/grantIsLive
)

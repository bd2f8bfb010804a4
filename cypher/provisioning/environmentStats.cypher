// @row { roles: number; users: number; policies: number; resources: number; tenants: number; has_decision_logs: boolean }
// Counts of one environment for Permit's EnvironmentStatistics: roles (tenant and resource roles),
// users, policies (the permissions roles grant, one per role and action, and the condition-set
// rules), resources, tenants, and whether any sampled decision is kept.
RETURN COUNT { MATCH (r:Role {env: $env}) } + COUNT { MATCH (r:ResourceRole {env: $env}) } AS roles,
       COUNT { MATCH (u:User {env: $env}) } AS users,
       coalesce(COLLECT { MATCH (r:Role {env: $env}) RETURN sum(size(coalesce(r.permissions, []))) }[0], 0)
         + coalesce(COLLECT { MATCH (r:ResourceRole {env: $env}) RETURN sum(size(coalesce(r.permissions, []))) }[0], 0)
         + COUNT { MATCH (s:SetRule {env: $env}) } AS policies,
       COUNT { MATCH (r:Resource {env: $env}) } AS resources,
       COUNT { MATCH (t:Tenant {env: $env}) } AS tenants,
       EXISTS { MATCH (b:DecisionLogBatch {env: $env}) } AS has_decision_logs

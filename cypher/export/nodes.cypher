// @row { labels: string[]; props: Record<string, unknown> }
// The records of environment $env an export holds (docs/behaviour.md section 16), section after section
// (schema with action groups, tenants, users, instances and groups, elements configs, approvals and access requests,
// condition sets and set rules, proxy configs and user invites),
// each streamed as the driver pulls it: no sort, nothing collected (the `IS NOT NULL`s, always
// true, let each section seek its label's (env, ...) index). Never keys, sessions, login
// codes, webhook deliveries, change or audit events (not selected), nor the webhook secret and
// bearer token of an elements config, nor the environment's own `env` (set again by an import).
// `_lock` and `webhook_seq` are internal state.
CALL () {
  MATCH (n:Resource {env: $env}) WHERE n.key IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:ResourceRole {env: $env}) WHERE n.resource IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:Relation {env: $env}) WHERE n.resource IS NOT NULL AND n.key IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:Derivation {env: $env}) RETURN n
  UNION ALL
  MATCH (n:Role {env: $env}) WHERE n.key IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:ActionGroup {env: $env}) WHERE n.resource IS NOT NULL AND n.key IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:Tenant {env: $env}) WHERE n.key IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:User {env: $env}) WHERE n.key IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:Instance {env: $env}) WHERE n.resource IS NOT NULL AND n.key IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:ElementsConfig {env: $env}) WHERE n.key IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:OperationApproval {env: $env}) WHERE n.config_id IS NOT NULL AND n.tenant IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:ConditionSet {env: $env}) WHERE n.key IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:SetRule {env: $env}) WHERE n.key IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:ProxyConfig {env: $env}) WHERE n.key IS NOT NULL RETURN n
  UNION ALL
  MATCH (n:UserInvite {env: $env}) WHERE n.id IS NOT NULL RETURN n
}
RETURN [l IN labels(n) WHERE l <> 'InEnv'] AS labels,
       n {.*, env: null, _lock: null, webhook_secret: null, webhook_bearer_token: null, webhook_seq: null} AS props

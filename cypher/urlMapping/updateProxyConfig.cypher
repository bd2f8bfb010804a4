// @invalidates none
// @changes proxy_config:update
// @row { config: ProxyConfigNode; before: ProxyConfigNode; after: ProxyConfigNode }
// Sets the given fields of proxy config $key of environment $env.
MATCH (c:ProxyConfig {env: $env, key: $key})
WITH c, c {.*} AS before
SET c.name = coalesce($name, c.name),
    c.auth_mechanism = coalesce($authMechanism, c.auth_mechanism),
    c.mapping_rules_json = coalesce($rulesJson, c.mapping_rules_json),
    c.updated_at = $nowIso
RETURN c {.*} AS config, before, c {.*} AS after

// @invalidates none
// @changes proxy_config:delete
// @row { deleted: number; before: ProxyConfigNode | null }
// Removes proxy config $key of environment $env, with its URL-mapping rules.
MATCH (c:ProxyConfig {env: $env, key: $key})
WITH c, c {.*} AS before
DELETE c
RETURN count(*) AS deleted, collect(before)[0] AS before

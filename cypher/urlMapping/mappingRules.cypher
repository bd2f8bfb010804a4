// @row { rules: string[] }
// The URL-mapping rules of every proxy config of environment $env (each config's list as JSON
// text), oldest config first: the rules /allowed_url tries, in this order on a tie of priority.
OPTIONAL MATCH (c:ProxyConfig {env: $env}) WHERE c.key IS NOT NULL
WITH c ORDER BY c.created_at, c.key
RETURN [json IN collect(c.mapping_rules_json) WHERE json IS NOT NULL] AS rules

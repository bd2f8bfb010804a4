// @row { total: number; data: ProxyConfigNode[] }
// The proxy configs of environment $env, oldest first (the order their rules are tried in on a tie
// of priority), one page. (`key IS NOT NULL`, always true, seeks the (env, key) index.)
OPTIONAL MATCH (c:ProxyConfig {env: $env}) WHERE c.key IS NOT NULL
WITH c ORDER BY c.created_at, c.key
WITH collect(c) AS items
RETURN size(items) AS total, [c IN items[$skip..($skip + $limit)] | c {.*}] AS data

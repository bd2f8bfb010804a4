// @row { keys: string[] }
MATCH (r:Role {env: $env}) WHERE r.key IN $keys
RETURN collect(r.key) AS keys

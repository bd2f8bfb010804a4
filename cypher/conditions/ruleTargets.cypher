// @row { actions: string[] | null; role_exists: boolean }
// What a set rule names, for its checks: the actions of $resource (null: no such resource) and
// whether the tenant role $role exists (with is_role).
OPTIONAL MATCH (r:Resource {env: $env, key: $resource})
OPTIONAL MATCH (role:Role {env: $env, key: $role})
RETURN CASE WHEN r IS NULL THEN null ELSE coalesce(r.actions, []) END AS actions, role IS NOT NULL AS role_exists

// @invalidates $env
// @changes group:delete
// @row { deleted: number; before: GroupNode | null }
// Detaching removes memberships, tuples to and from the group and GROUPS edges: everything
// derived through the group is revoked. Automatic relations and derivations are schema shared
// by other groups of the type and stay.
MATCH (g:Group {env: $env, key: $key})
WITH g, g {.*} AS before
DETACH DELETE g
RETURN count(*) AS deleted, collect(before)[0] AS before

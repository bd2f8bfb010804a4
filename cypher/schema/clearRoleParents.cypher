// @invalidates $env
// @changes role_parent:delete
// @row { removed: number }
// Drops every role `role` extends (before `extends` given on an update sets the new list).
MATCH (r:Role|ResourceRole {env: $env, key: $role})-[e:EXTENDS]->(:Role|ResourceRole)
WHERE ($resource IS NULL AND r:Role) OR (r:ResourceRole AND r.resource = $resource)
DELETE e
RETURN count(*) AS removed

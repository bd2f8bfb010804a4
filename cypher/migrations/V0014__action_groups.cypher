// Action groups (docs/behaviour.md section 23): one key per resource of an environment, found by id too.
// A role's permissions as written are `declared_permissions`; `permissions` (what the walks read)
// is that set with each action group expanded into its actions (cypher/fragments/expandPermissions.cypher).
// Roles written before this version have no action group among their permissions: their
// `declared_permissions` is their `permissions`, set here. Running it again changes nothing.
CREATE CONSTRAINT action_group_key IF NOT EXISTS FOR (g:ActionGroup) REQUIRE (g.env, g.resource, g.key) IS UNIQUE;
CREATE INDEX action_group_id IF NOT EXISTS FOR (g:ActionGroup) ON (g.id);
MATCH (r:Role|ResourceRole)
WHERE r.declared_permissions IS NULL
SET r.declared_permissions = coalesce(r.permissions, []);

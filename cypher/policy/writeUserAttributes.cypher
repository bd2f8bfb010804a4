// @invalidates $env
// @changes resource:update
// @row { key: string; before: ResourceNode; after: ResourceNode }
// The user attributes a policy file declares: the attribute map of the built-in resource `__user`,
// made when missing (managed: never a resource of the file).
MERGE (u:Resource {env: $env, key: '__user'})
  ON CREATE SET u:InEnv, u.id = $id, u.name = 'User', u.description = null, u.actions = [], u.actions_json = '{}', u.created_at = $nowIso
WITH u, u {.*} AS before
SET u.attributes_json = $attributes_json, u.updated_at = $nowIso
RETURN u.key AS key, before, u {.*} AS after

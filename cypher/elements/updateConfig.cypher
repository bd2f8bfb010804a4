// @invalidates none
MATCH (c:ElementsConfig {env: $env, id: $id})
SET c.name = coalesce($name, c.name),
    c.settings_json = coalesce($settings_json, c.settings_json),
    c.resources = coalesce($resources, c.resources),
    c.roles_to_levels_json = coalesce($roles_to_levels_json, c.roles_to_levels_json),
    c.updated_at = $now
RETURN c {.*} AS config

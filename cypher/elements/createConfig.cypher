// @invalidates none
// @changes elements_config:create
// @row { config: ElementsConfigNode }
CREATE (c:ElementsConfig:InEnv {env: $env, id: $id, key: $key, name: $name, elements_type: $elements_type,
                                settings_json: $settings_json, roles_to_levels_json: $roles_to_levels_json,
                                resources: $resources, webhook_url: $webhook_url, webhook_bearer_token: $webhook_bearer_token,
                                webhook_secret: $webhook_secret, created_at: $nowIso, updated_at: $nowIso})
RETURN c {.*, secret_is_new: true} AS config

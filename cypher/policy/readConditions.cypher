// @row { user_attributes: string | null; sets: { key: string; name: string; description: string | null; type: string; resource: string | null; parent: string | null; conditions_json: string }[]; rules: { key: string; user_set: string; permission: string; resource_set: string; is_role: boolean; is_resource: boolean }[] }
// The environment's conditions as a policy file carries them (docs/behaviour.md section 17): the user
// attributes (of the built-in resource `__user`), the condition sets and the set rules.
OPTIONAL MATCH (u:Resource {env: $env, key: '__user'})
RETURN u.attributes_json AS user_attributes,
       COLLECT { MATCH (s:ConditionSet {env: $env}) WHERE s.key IS NOT NULL
                 RETURN s {.key, .name, .description, .type, .resource, .parent, .conditions_json} ORDER BY s.key } AS sets,
       COLLECT { MATCH (r:SetRule {env: $env}) WHERE r.key IS NOT NULL
                 RETURN r {.key, .user_set, .permission, .resource_set, .is_role, .is_resource} ORDER BY r.key } AS rules

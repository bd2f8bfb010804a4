// @row {
//   resources: {
//     key: string;
//     name: string | null;
//     description: string | null;
//     actions: string[] | null;
//     actions_json: string | null;
//     attributes_json: string | null;
//     roles: { key: string; name: string | null; description: string | null; permissions: string[] | null; extends: string[] }[];
//     relations: { key: string; name: string | null; description: string | null; subject_resource: string }[];
//     derivations: { role: string; on_resource: string; from_role: string; relation: string; no_direct_roles_on_object: boolean | null }[];
//     action_groups: { key: string; name: string | null; description: string | null; actions: string[] | null }[];
//   }[];
//   roles: { key: string; name: string | null; description: string | null; permissions: string[] | null; extends: string[] }[];
//   groupTypes: string[];
//   governed: string[];
//   configs: { id: string; key: string; name: string | null; elements_type: string | null; resources: string[] | null; roles_to_levels_json: string | null }[];
//   proxyConfigs: { key: string; name: string; auth_mechanism: string | null; mapping_rules_json: string | null }[];
// }
// The environment's whole schema, for a policy plan, apply or export: every resource (its
// actions, action groups, roles with permissions (as written) and the roles they extend, relations, the derivations that
// grant on it), every tenant role, and what tells managed schema apart (docs/policy-as-code.md):
// the group types (resources that groups are instances of) and the resources elements configs govern;
// and the elements configs themselves (without their webhooks, which policy files do not carry);
// the proxy configs (their URL-mapping rules; no secret is kept), oldest first.
CALL () {
  MATCH (r:Resource {env: $env}) WHERE r.key IS NOT NULL
  RETURN collect(r {.key, .name, .description, .actions, .actions_json, .attributes_json,
    roles: COLLECT {
      MATCH (rr:ResourceRole {env: $env, resource: r.key})
      RETURN rr {.key, .name, .description, permissions: coalesce(rr.declared_permissions, rr.permissions),
                 extends: COLLECT { MATCH (rr)-[:EXTENDS]->(p) RETURN p.key ORDER BY p.key }} ORDER BY rr.key
    },
    relations: COLLECT {
      MATCH (rel:Relation {env: $env, resource: r.key}) WHERE rel.key IS NOT NULL
      RETURN rel {.key, .name, .description, .subject_resource} ORDER BY rel.key
    },
    action_groups: COLLECT {
      MATCH (g:ActionGroup {env: $env, resource: r.key})
      RETURN g {.key, .name, .description, .actions} ORDER BY g.key
    },
    derivations: COLLECT {
      MATCH (d:Derivation {env: $env, resource: r.key})
      RETURN d {.role, .on_resource, .from_role, .relation, .no_direct_roles_on_object}
      ORDER BY d.role, d.on_resource, d.from_role, d.relation
    }
  }) AS resources
}
CALL () {
  MATCH (t:Role {env: $env}) WHERE t.key IS NOT NULL
  RETURN collect(t {.key, .name, .description, permissions: coalesce(t.declared_permissions, t.permissions),
                    extends: COLLECT { MATCH (t)-[:EXTENDS]->(p) RETURN p.key ORDER BY p.key }}) AS roles
}
// A group type: a resource with the role `member` that groups are instances of, or that still
// carries what group grants made (a relation `group`, or `<type>_<role>_group` on a target) after
// its groups were deleted.
CALL () {
  MATCH (t:Resource {env: $env}) WHERE t.key IS NOT NULL
    AND EXISTS { MATCH (:ResourceRole {env: $env, resource: t.key, key: 'member'}) }
    AND (EXISTS { MATCH (g:Group {env: $env}) WHERE g.resource = t.key }
         OR EXISTS { MATCH (rel:Relation {env: $env}) WHERE rel.subject_resource = t.key
                       AND (rel.key = 'group' OR (rel.key STARTS WITH t.key + '_' AND rel.key ENDS WITH '_group')) })
  RETURN collect(t.key) AS groupTypes
}
CALL () {
  MATCH (c:ElementsConfig {env: $env}) WHERE c.key IS NOT NULL
  UNWIND coalesce(c.resources, []) AS governed
  RETURN collect(DISTINCT governed) AS governed
}
CALL () {
  MATCH (c:ElementsConfig {env: $env}) WHERE c.key IS NOT NULL
  RETURN collect(c {.id, .key, .name, .elements_type, .resources, .roles_to_levels_json}) AS configs
}
CALL () {
  OPTIONAL MATCH (c:ProxyConfig {env: $env}) WHERE c.key IS NOT NULL
  WITH c ORDER BY c.created_at, c.key
  RETURN collect(c {.key, .name, .auth_mechanism, .mapping_rules_json}) AS proxyConfigs
}
RETURN resources, roles, groupTypes, governed, configs, proxyConfigs

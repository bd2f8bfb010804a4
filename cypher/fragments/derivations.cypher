// Fragment: the environment's role derivations and role hierarchy, read once per statement.
// Rule: a user holding `from_role` on an `on_resource` instance (the subject) that a relationship
// tuple named `relation` links to a `resource` instance (the object) holds `role` on that object;
// with `no_direct_roles_on_object` (Permit's `when`), not on an object the user holds any direct
// role on (a HAS_ROLE edge to it).
// Hierarchy: a role that EXTENDS another (transitively) is held wherever it is held with the other
// too (fragments/reachableStates applies it to every state of the walk).
// Needs: $env. Produces:
//   derivations       [{resource, role, on_resource, from_role, relation, no_direct_roles_on_object}]
//   roleHierarchy     [{resource (null: tenant-level role), role, up: [ancestor keys], down: [descendant keys]}],
//                     one per role with an EXTENDS edge
//   resourceRoleKeys  ["<resource>|<role>"] every resource role (a tenant-level role's hierarchy
//                     applies at instance scope only on types without a resource role of its key)
// Every table is in one order (derivations by their five fields, roles and keys by key), which the
// extension's RuleTables reproduces, so that both walks visit states in the same order.
CALL () {
  MATCH (derivation:Derivation {env: $env})
  WITH derivation ORDER BY derivation.resource, derivation.role, derivation.on_resource, derivation.from_role, derivation.relation
  RETURN collect(derivation {.resource, .role, .on_resource, .from_role, .relation,
                             no_direct_roles_on_object: coalesce(derivation.no_direct_roles_on_object, false)}) AS derivations
}
// The `key IS NOT NULL` (always true) lets Neo4j seek the (env, key) and (env, resource, key)
// indexes with $env alone: without it, it scans every Role and ResourceRole of every environment.
CALL () {
  CALL () {
    MATCH (ranked:Role {env: $env}) WHERE ranked.key IS NOT NULL
    RETURN ranked
    UNION ALL
    MATCH (ranked:ResourceRole {env: $env}) WHERE ranked.resource IS NOT NULL AND ranked.key IS NOT NULL
    RETURN ranked
  }
  WITH ranked
  WHERE EXISTS { (ranked)-[:EXTENDS]-() }
  RETURN collect({resource: CASE WHEN ranked:ResourceRole THEN ranked.resource END, role: ranked.key,
                  up: COLLECT { MATCH (ranked)-[:EXTENDS*1..]->(ancestor) WHERE ancestor.key IS NOT NULL
                                RETURN DISTINCT ancestor.key AS key ORDER BY key },
                  down: COLLECT { MATCH (descendant)-[:EXTENDS*1..]->(ranked) WHERE descendant.key IS NOT NULL
                                  RETURN DISTINCT descendant.key AS key ORDER BY key }}) AS roleHierarchy
}
CALL () {
  MATCH (resourceRole:ResourceRole {env: $env}) WHERE resourceRole.resource IS NOT NULL AND resourceRole.key IS NOT NULL
  RETURN collect(resourceRole.resource + '|' + resourceRole.key) AS resourceRoleKeys
}

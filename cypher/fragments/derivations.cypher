// Fragment: the environment's role derivations, read once per statement.
// Rule: a user holding `from_role` on an `on_resource` instance (the subject) that a relationship
// tuple named `relation` links to a `resource` instance (the object) holds `role` on that object.
// Needs: $env. Produces:
//   derivations  [{resource, role, on_resource, from_role, relation}], one per Derivation node.
CALL {
  MATCH (derivation:Derivation {env: $env})
  RETURN collect(derivation {.resource, .role, .on_resource, .from_role, .relation}) AS derivations
}

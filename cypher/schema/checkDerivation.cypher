// @row DerivationRefs
// What a derivation (resource, role, on_resource, from_role, relation) refers to, for the domain's checks.
OPTIONAL MATCH (rel:Relation {env: $env, resource: $resource, key: $relation})
RETURN rel IS NOT NULL AS relationExists,
       rel.subject_resource AS relationSubject,
       EXISTS { MATCH (:Resource {env: $env, key: $on_resource}) } AS onResourceExists,
       EXISTS { MATCH (:ResourceRole {env: $env, resource: $on_resource, key: $from_role}) }
         OR EXISTS { MATCH (:Role {env: $env, key: $from_role}) } AS fromRoleExists,
       EXISTS { MATCH (:ResourceRole {env: $env, resource: $resource, key: $role}) }
         OR EXISTS { MATCH (:Role {env: $env, key: $role}) } AS roleExists

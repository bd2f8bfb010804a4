// @row { group: GroupNode; assigned_roles: string[]; users: string[] }
// Group records for $keys (in any order; the caller orders them). assigned_roles are the
// group's tuples joined with the derivations from (<type>, member) over their relation,
// leaving out group-to-group links (relation `group`).
UNWIND $keys AS k
MATCH (g:Group {env: $env, key: k})
RETURN g {.*} AS group,
       COLLECT {
         MATCH (g)-[x:RELATED]->(i:Instance)
         WHERE x.relation <> 'group'
         MATCH (d:Derivation {env: $env, resource: i.resource, on_resource: g.resource, from_role: 'member', relation: x.relation})
         WITH DISTINCT i.resource + ':' + i.key + '#' + d.role AS assigned
         RETURN assigned ORDER BY assigned
       } AS assigned_roles,
       COLLECT {
         MATCH (u:User)-[:HAS_ROLE {role: 'member'}]->(g)
         WITH DISTINCT u.key AS user
         RETURN user ORDER BY user
       } AS users

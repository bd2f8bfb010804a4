// Everything a user may do: a forward breadth-first search from the user's role assignments
// over outgoing RELATED (through Derivations) and GROUPS edges, visiting each (node, role) state
// once (cycles terminate) up to $depth hops; then each reached role's permissions on that
// node's resource, plus the user's tenant roles. $tenants / $types (nullable) narrow the answer.
CALL {
  MATCH (d:Derivation {env: $env})
  RETURN collect(d {.resource, .role, .on_resource, .from_role, .relation}) AS derivs
}
MATCH (u:User {env: $env, key: $user})
WITH u, derivs, [(u)-[a:HAS_ROLE]->(n) | {n: n, role: a.role}] AS start
WITH u, reduce(
  st = {front: start, seen: [s IN start | elementId(s.n) + '|' + s.role], states: start},
  i IN range(1, $depth) |
  CASE WHEN size(st.front) = 0 THEN st
  ELSE reduce(acc = {front: [], seen: st.seen, states: st.states},
         s IN reduce(l = [], x IN st.front |
                l + reduce(l2 = [], e IN head([n IN [x.n] | [(n)-[r:RELATED|GROUPS]->(m) | {m: m, r: r}]]) |
                  l2 + CASE type(e.r)
                         WHEN 'GROUPS' THEN [{n: e.m, role: x.role}]
                         ELSE [d IN derivs WHERE d.on_resource = x.n.resource AND d.from_role = x.role
                                 AND d.relation = e.r.relation AND d.resource = e.m.resource
                               | {n: e.m, role: d.role}]
                       END)) |
         CASE WHEN (elementId(s.n) + '|' + s.role) IN acc.seen THEN acc
              ELSE {front: acc.front + [s], seen: acc.seen + [elementId(s.n) + '|' + s.role], states: acc.states + [s]} END)
  END).states AS states
CALL {
  WITH states
  UNWIND states AS s
  WITH s
  WHERE ($tenants IS NULL OR s.n.tenant IN $tenants) AND ($types IS NULL OR s.n.resource IN $types)
  OPTIONAL MATCH (rr:ResourceRole {env: $env, resource: s.n.resource, key: s.role})
  OPTIONAL MATCH (tr:Role {env: $env, key: s.role})
  WITH s.n AS n, s.role AS role,
       CASE WHEN rr IS NOT NULL THEN [a IN rr.permissions | s.n.resource + ':' + a]
            WHEN tr IS NOT NULL THEN [p IN tr.permissions WHERE p STARTS WITH s.n.resource + ':']
            ELSE [] END AS perms
  WITH n, collect(role) AS roles, reduce(acc = [], p IN collect(perms) | acc + [x IN p WHERE NOT x IN acc]) AS permissions
  RETURN collect({key: n.resource + ':' + n.key, tenant: n.tenant, type: n.resource, resource_key: n.key,
                  roles: roles, permissions: permissions}) AS instances
}
CALL {
  WITH u
  OPTIONAL MATCH (u)-[h:HAS_TENANT_ROLE]->(t:Tenant)
  WHERE $tenants IS NULL OR t.key IN $tenants
  OPTIONAL MATCH (tr:Role {env: $env, key: h.role})
  WITH t, collect(h.role) AS roles, reduce(acc = [], p IN collect(coalesce(tr.permissions, [])) | acc + [x IN p WHERE NOT x IN acc]) AS permissions
  WHERE t IS NOT NULL
  RETURN collect({key: '__tenant:' + t.key, tenant: t.key, roles: roles,
                  permissions: [p IN permissions WHERE $types IS NULL OR split(p, ':')[0] IN $types]}) AS tenants
}
RETURN instances, tenants

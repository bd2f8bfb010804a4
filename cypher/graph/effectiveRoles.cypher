// Each role a user holds on each instance, with the path that grants it: the forward
// breadth-first search of userPermissions.cypher, keeping a readable trail per state.
CALL {
  MATCH (d:Derivation {env: $env})
  RETURN collect(d {.resource, .role, .on_resource, .from_role, .relation}) AS derivs
}
MATCH (u:User {env: $env, key: $user})
WITH u, derivs,
     [(u)-[a:HAS_ROLE]->(n) | {n: n, role: a.role, t: 'user:' + u.key + ' -' + a.role + '-> ' + n.resource + ':' + n.key}] AS start
WITH u, reduce(
  st = {front: start, seen: [s IN start | elementId(s.n) + '|' + s.role], states: start},
  i IN range(1, $depth) |
  CASE WHEN size(st.front) = 0 THEN st
  ELSE reduce(acc = {front: [], seen: st.seen, states: st.states},
         s IN reduce(l = [], x IN st.front |
                l + reduce(l2 = [], e IN head([n IN [x.n] | [(n)-[r:RELATED|GROUPS]->(m) | {m: m, r: r}]]) |
                  l2 + CASE type(e.r)
                         WHEN 'GROUPS' THEN [{n: e.m, role: x.role, t: x.t + ' -groups-> ' + e.m.resource + ':' + e.m.key}]
                         ELSE [d IN derivs WHERE d.on_resource = x.n.resource AND d.from_role = x.role
                                 AND d.relation = e.r.relation AND d.resource = e.m.resource
                               | {n: e.m, role: d.role, t: x.t + ' -' + e.r.relation + '-> ' + e.m.resource + ':' + e.m.key}]
                       END)) |
         CASE WHEN (elementId(s.n) + '|' + s.role) IN acc.seen THEN acc
              ELSE {front: acc.front + [s], seen: acc.seen + [elementId(s.n) + '|' + s.role], states: acc.states + [s]} END)
  END).states AS states
RETURN [s IN states WHERE $tenant IS NULL OR s.n.tenant = $tenant |
          {resource: s.n.resource + ':' + s.n.key, tenant: s.n.tenant, role: s.role, path: s.t + '#' + s.role}]
     + [(u)-[h:HAS_TENANT_ROLE]->(t:Tenant) WHERE $tenant IS NULL OR t.key = $tenant |
          {resource: '__tenant:' + t.key, tenant: t.key, role: h.role, path: 'user:' + u.key + ' -' + h.role + '-> tenant:' + t.key}]
       AS roles

// Who may do `action` on an instance: the backward breadth-first search of allowed.cypher,
// collecting every (node, role) state it reaches, then the users holding those roles there,
// plus the users whose tenant role in the instance's tenant grants the action.
CALL {
  MATCH (d:Derivation {env: $env})
  RETURN collect(d {.resource, .role, .on_resource, .from_role, .relation}) AS derivs
}
OPTIONAL MATCH (target:Instance {env: $env, resource: $type, key: $key})
WITH derivs, target, coalesce(target.tenant, $tenant, 'default') AS tenant
CALL {
  OPTIONAL MATCH (rr:ResourceRole {env: $env, resource: $type})
  RETURN collect(rr {.key, .permissions}) AS resourceRoles
}
CALL {
  OPTIONAL MATCH (tr:Role {env: $env})
  WHERE ($type + ':' + $action) IN tr.permissions
  RETURN collect(tr.key) AS tenantGrant
}
WITH derivs, target, tenant, tenantGrant,
     [r IN resourceRoles WHERE $action IN r.permissions | r.key]
       + [k IN tenantGrant WHERE NONE(r IN resourceRoles WHERE r.key = k)] AS instanceGrant
WITH tenant, tenantGrant, CASE WHEN target IS NULL OR ($tenant IS NOT NULL AND $tenant <> tenant) THEN [] ELSE reduce(
  st = {front: [g IN instanceGrant | {n: target, role: g}], seen: [g IN instanceGrant | elementId(target) + '|' + g],
        states: [g IN instanceGrant | {n: target, role: g}]},
  i IN range(1, $depth) |
  CASE WHEN size(st.front) = 0 THEN st
  ELSE reduce(acc = {front: [], seen: st.seen, states: st.states},
         s IN reduce(l = [], x IN st.front |
                l + reduce(l2 = [], e IN head([n IN [x.n] | [(m)-[r:RELATED|GROUPS]->(n) | {m: m, r: r}]]) |
                  l2 + CASE type(e.r)
                         WHEN 'GROUPS' THEN [{n: e.m, role: x.role}]
                         ELSE [d IN derivs WHERE d.resource = x.n.resource AND d.role = x.role
                                 AND d.relation = e.r.relation AND d.on_resource = e.m.resource
                               | {n: e.m, role: d.from_role}]
                       END)) |
         CASE WHEN (elementId(s.n) + '|' + s.role) IN acc.seen THEN acc
              ELSE {front: acc.front + [s], seen: acc.seen + [elementId(s.n) + '|' + s.role], states: acc.states + [s]} END)
  END).states END AS states
CALL {
  WITH states
  UNWIND states AS s
  WITH s.n AS n, s.role AS role
  MATCH (u:User)-[a:HAS_ROLE {role: role}]->(n)
  RETURN collect({user: u.key, tenant: n.tenant, resource: n.resource + ':' + n.key, role: role}) AS viaInstances
}
CALL {
  WITH tenant, tenantGrant
  OPTIONAL MATCH (u:User)-[h:HAS_TENANT_ROLE]->(:Tenant {env: $env, key: tenant})
  WHERE h.role IN tenantGrant
  RETURN collect(CASE WHEN u IS NULL THEN null ELSE {user: u.key, tenant: tenant, resource: '__tenant:' + tenant, role: h.role} END) AS viaTenant
}
RETURN tenant, viaTenant + viaInstances AS assignments

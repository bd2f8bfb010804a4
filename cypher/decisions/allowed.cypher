// Answers a batch of permission questions ($checks: [{user, action, type, key?, tenant?}]) in one
// round trip. For each question:
//  1. the role keys that grant `action` on `type`: resource roles of `type` listing the action, and
//     tenant roles listing "type:action" (at instance scope only where `type` has no resource role
//     of that key);
//  2. a tenant role held in the instance's tenant that grants the action allows at once;
//  3. otherwise a breadth-first search walks backwards from the instance over incoming RELATED
//     (relationship tuples, through Derivations) and GROUPS (resource groups) edges, carrying the
//     role that would be needed on each node. States (node, role) are visited once, so cycles
//     terminate; the walk stops at $depth hops, or as soon as the user holds a needed role.
CALL {
  MATCH (d:Derivation {env: $env})
  RETURN collect(d {.resource, .role, .on_resource, .from_role, .relation}) AS derivs
}
UNWIND range(0, size($checks) - 1) AS idx
WITH derivs, idx, $checks[idx] AS c
OPTIONAL MATCH (u:User {env: $env, key: c.user})
OPTIONAL MATCH (target:Instance {env: $env, resource: c.type, key: c.key})
CALL {
  WITH c
  OPTIONAL MATCH (rr:ResourceRole {env: $env, resource: c.type})
  RETURN collect(rr {.key, .permissions}) AS resourceRoles
}
CALL {
  WITH c
  OPTIONAL MATCH (tr:Role {env: $env})
  WHERE (c.type + ':' + c.action) IN tr.permissions
  RETURN collect(tr.key) AS tenantGrant
}
WITH idx, c, u, target, derivs, tenantGrant,
     [r IN resourceRoles WHERE c.action IN r.permissions | r.key]
       + [k IN tenantGrant WHERE NONE(r IN resourceRoles WHERE r.key = k)] AS instanceGrant,
     coalesce(target.tenant, c.tenant, 'default') AS tenant
WITH idx, c, u, target, derivs, tenantGrant, instanceGrant, tenant,
     u IS NOT NULL AND (c.tenant IS NULL OR c.tenant = tenant) AS viable
WITH idx, c, u, target, derivs, instanceGrant, viable,
     viable AND EXISTS {
       MATCH (u)-[h:HAS_TENANT_ROLE]->(:Tenant {env: $env, key: tenant})
       WHERE h.role IN tenantGrant
     } AS byTenantRole
WITH idx, byTenantRole, derivs,
     CASE WHEN byTenantRole OR NOT viable OR target IS NULL OR size(instanceGrant) = 0 THEN null ELSE target END AS target,
     CASE WHEN viable THEN [(u)-[a:HAS_ROLE]->(n) | elementId(n) + '|' + a.role] ELSE [] END AS held,
     instanceGrant
WITH idx, byTenantRole, held,
     CASE WHEN target IS NULL THEN [] ELSE reduce(
       st = {front: [g IN instanceGrant | {n: target, role: g}], seen: [g IN instanceGrant | elementId(target) + '|' + g]},
       i IN range(1, $depth) |
       CASE WHEN size(st.front) = 0 OR any(k IN st.seen WHERE k IN held) THEN st
       ELSE reduce(acc = {front: [], seen: st.seen},
              s IN reduce(l = [], x IN st.front |
                     l + reduce(l2 = [], e IN head([n IN [x.n] | [(m)-[r:RELATED|GROUPS]->(n) | {m: m, r: r}]]) |
                       l2 + CASE type(e.r)
                              WHEN 'GROUPS' THEN [{n: e.m, role: x.role}]
                              ELSE [d IN derivs WHERE d.resource = x.n.resource AND d.role = x.role
                                      AND d.relation = e.r.relation AND d.on_resource = e.m.resource
                                    | {n: e.m, role: d.from_role}]
                            END)) |
              CASE WHEN (elementId(s.n) + '|' + s.role) IN acc.seen THEN acc
                   ELSE {front: acc.front + [s], seen: acc.seen + [elementId(s.n) + '|' + s.role]} END)
       END).seen END AS reached
RETURN idx, byTenantRole OR any(k IN reached WHERE k IN held) AS allow
ORDER BY idx

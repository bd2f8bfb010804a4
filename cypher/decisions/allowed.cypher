// Answers a batch of permission questions ($checks: [{user, action, type, key?, tenant?}]) in one
// round trip. For each question:
//  1. the role keys that grant `action` on `type`: resource roles of `type` listing the action, and
//     tenant roles listing "type:action" (at instance scope only where `type` has no resource role
//     of that key);
//  2. a tenant role held in the instance's tenant that grants the action allows at once
//     (with $explain the search still runs, to show every granting path);
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
WITH idx, c, u, target, derivs, instanceGrant, viable, tenant,
     CASE WHEN viable
       THEN [(u)-[h:HAS_TENANT_ROLE]->(tt:Tenant) WHERE tt.env = $env AND tt.key = tenant AND h.role IN tenantGrant | h.role]
       ELSE [] END AS tenantRoles
WITH idx, c, u, target, derivs, instanceGrant, viable, tenant, tenantRoles, size(tenantRoles) > 0 AS byTenantRole
WITH idx, c, u, byTenantRole, tenantRoles, derivs, tenant, instanceGrant,
     CASE WHEN (byTenantRole AND NOT $explain) OR NOT viable OR target IS NULL OR size(instanceGrant) = 0 THEN null ELSE target END AS start,
     CASE WHEN viable THEN [(u)-[a:HAS_ROLE]->(n) | elementId(n) + '|' + a.role] ELSE [] END AS held
// st.seen holds the visited states as "elementId|role"; st.trails (only with $explain) the
// readable way from that state to the target, at the same index.
WITH idx, c, u, byTenantRole, tenantRoles, tenant, instanceGrant, held, start IS NOT NULL AS searched,
     CASE WHEN start IS NULL THEN {seen: [], trails: []} ELSE reduce(
       st = {front: [g IN instanceGrant | {n: start, role: g, t: CASE WHEN $explain THEN start.resource + ':' + start.key + '#' + g ELSE '' END}],
             seen: [g IN instanceGrant | elementId(start) + '|' + g],
             trails: [g IN instanceGrant | CASE WHEN $explain THEN start.resource + ':' + start.key + '#' + g ELSE '' END]},
       i IN range(1, $depth) |
       CASE WHEN size(st.front) = 0 OR (NOT $explain AND any(k IN st.seen WHERE k IN held)) THEN st
       ELSE reduce(acc = {front: [], seen: st.seen, trails: st.trails},
              s IN reduce(l = [], x IN st.front |
                     l + reduce(l2 = [], e IN head([n IN [x.n] | [(m)-[r:RELATED|GROUPS]->(n) | {m: m, r: r}]]) |
                       l2 + [next IN CASE type(e.r)
                              WHEN 'GROUPS' THEN [{n: e.m, role: x.role, via: 'groups'}]
                              ELSE [d IN derivs WHERE d.resource = x.n.resource AND d.role = x.role
                                      AND d.relation = e.r.relation AND d.on_resource = e.m.resource
                                    | {n: e.m, role: d.from_role, via: e.r.relation}]
                            END | {n: next.n, role: next.role,
                                   t: CASE WHEN $explain THEN next.n.resource + ':' + next.n.key + ' -' + next.via + '-> ' + x.t ELSE '' END}])) |
              CASE WHEN (elementId(s.n) + '|' + s.role) IN acc.seen THEN acc
                   ELSE {front: acc.front + [s], seen: acc.seen + [elementId(s.n) + '|' + s.role], trails: acc.trails + [s.t]} END)
       END) END AS st
WITH idx, c, u, byTenantRole, tenantRoles, tenant, instanceGrant, searched, held, st,
     [i IN range(0, size(st.seen) - 1) WHERE st.seen[i] IN held | i] AS hits
RETURN idx, byTenantRole OR size(hits) > 0 AS allow,
       CASE WHEN NOT $explain THEN null ELSE {
         user_found: u IS NOT NULL,
         tenant: tenant,
         granting_roles: instanceGrant,
         tenant_role_grant: byTenantRole,
         searched: searched,
         states_visited: size(st.seen),
         paths: [r IN tenantRoles | 'user:' + u.key + ' -' + r + '-> tenant:' + tenant]
                + [i IN hits | 'user:' + u.key + ' -' + split(st.seen[i], '|')[1] + '-> ' + st.trails[i]]
       } END AS explanation
ORDER BY idx

// @row {
//   found: boolean; truncated: boolean;
//   nodes: { id: string; labels: string[]; key: string; resource: string | null; tenant: string | null; email: string | null }[];
//   edges: { id: string; type: string; from: string; to: string; role: string | null; relation: string | null }[];
// }
// The neighbourhood of a focus node (a user or an instance) for admins: a breadth-first walk
// over role assignments, tuples and resource-group edges in both directions, up to $depth hops
// and $limit nodes, restricted to $tenant when given. Without a focus it starts from the
// environment's users and instances. `truncated` says the limit cut the walk short. An edge whose
// `expires_at` (epoch ms) is at or before $nowMs is not shown (it grants nothing).
OPTIONAL MATCH (fu:User {env: $env, key: $focusKey}) WHERE $focusType = 'user'
OPTIONAL MATCH (fi:Instance {env: $env, resource: $focusType, key: $focusKey})
WITH coalesce(fu, fi) AS focus
CALL (focus) {
  OPTIONAL MATCH (n:InEnv {env: $env})
  WHERE focus IS NULL AND $focusType IS NULL AND (n:User OR n:Instance)
    AND ($tenant IS NULL OR n.tenant IS NULL OR n.tenant = $tenant)
  WITH n LIMIT $limit
  RETURN collect(n) AS seeds
}
WITH focus, CASE WHEN focus IS NULL THEN seeds ELSE [focus] END AS start
WITH focus, reduce(
  st = {front: start, seen: [n IN start | elementId(n)], nodes: start},
  i IN range(1, $depth) |
  CASE WHEN size(st.front) = 0 OR size(st.nodes) > $limit THEN st
  ELSE reduce(acc = {front: [], seen: st.seen, nodes: st.nodes},
         m IN reduce(l = [], x IN st.front |
                l + [(x)-[grant:HAS_ROLE|RELATED|GROUPS|HAS_TENANT_ROLE]-(m)
                     WHERE m.env = $env AND ($tenant IS NULL OR m.tenant IS NULL OR m.tenant = $tenant) AND
// #include fragments/rule/grantIsLive
                     | m]) |
         CASE WHEN elementId(m) IN acc.seen THEN acc
              ELSE {front: acc.front + [m], seen: acc.seen + [elementId(m)], nodes: acc.nodes + [m]} END)
  END) AS st
WITH focus, st.nodes[0..$limit] AS nodes, size(st.nodes) > $limit AS truncated
CALL (nodes) {
  UNWIND nodes AS a
  MATCH (a)-[grant:HAS_ROLE|RELATED|GROUPS|HAS_TENANT_ROLE]->(b)
  WHERE b IN nodes AND
// #include fragments/rule/grantIsLive
  RETURN collect({id: elementId(grant), type: type(grant), from: elementId(a), to: elementId(b),
                  role: grant.role, relation: grant.relation}) AS edges
}
RETURN focus IS NOT NULL AS found, truncated, edges,
       [n IN nodes | {id: elementId(n), labels: [l IN labels(n) WHERE l <> 'InEnv'], key: n.key,
                      resource: n.resource, tenant: n.tenant, email: n.email}] AS nodes

// @row { assigned: boolean; cycle: boolean }
// Is $a already a member of $b, and does $b already reach $a over `group` tuples (a cycle)?
// ANY SHORTEST is a breadth-first search: linear in the reachable graph, even on diamonds or on
// cycles made through the generic tuple API.
MATCH (a:Group {env: $env, key: $a})
MATCH (b:Group {env: $env, key: $b})
RETURN EXISTS { (a)-[:RELATED {relation: 'group'}]->(b) } AS assigned,
       EXISTS { MATCH ANY SHORTEST (b) (()-[r:RELATED WHERE r.relation = 'group']->()){1,} (a) } AS cycle

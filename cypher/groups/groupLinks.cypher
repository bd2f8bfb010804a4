// Is $a already a member of $b, and does $b already reach $a over `group` tuples (a cycle)?
MATCH (a:Group {env: $env, key: $a})
MATCH (b:Group {env: $env, key: $b})
RETURN EXISTS { (a)-[:RELATED {relation: 'group'}]->(b) } AS assigned,
       EXISTS { MATCH (b)-[:RELATED*1.. {relation: 'group'}]->(a) } AS cycle

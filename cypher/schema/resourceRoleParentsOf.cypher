// @row { resource: string; key: string; parents: string[] }
// For a page of resources: the roles each role of each of $resources directly extends.
UNWIND $resources AS resource
MATCH (r:ResourceRole {env: $env, resource: resource})-[:EXTENDS]->(p:ResourceRole)
RETURN resource, r.key AS key, collect(p.key) AS parents

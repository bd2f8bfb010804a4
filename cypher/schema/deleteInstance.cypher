// @invalidates $env
// Detaching removes the instance's role assignments, tuples, group links and tenant link.
MATCH (i:Instance {env: $env, resource: $resource, key: $key})
DETACH DELETE i
RETURN count(*) AS deleted

// @invalidates $env
// @changes resource_instance:delete
// @row { deleted: number; before: StoredInstance | null }
// Detaching removes the instance's role assignments, tuples, group links and tenant link.
MATCH (i:Instance {env: $env, resource: $resource, key: $key})
WITH i, i {.*} AS before
DETACH DELETE i
RETURN count(*) AS deleted, collect(before)[0] AS before

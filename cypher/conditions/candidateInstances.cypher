// @row { instances: { type: string; key: string; tenant: string; attributes_json: string | null }[] }
// The instances of the types $types (in the tenants $tenants, null: any) with their stored
// attributes: the candidates of a resource set, for list-objects and user-permissions (asked only
// where a set rule grants a permission on those types).
RETURN COLLECT {
  UNWIND $types AS type
  MATCH (i:Instance {env: $env, resource: type}) WHERE $tenants IS NULL OR i.tenant IN $tenants
  RETURN {type: i.resource, key: i.key, tenant: i.tenant, attributes_json: i.attributes_json} ORDER BY i.resource, i.key
} AS instances

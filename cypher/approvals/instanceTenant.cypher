// @row { tenant: string }
// The tenant of the instance $resource:$key (no row: there is none). An approval may name only an
// instance of the session's tenant; the caller answers the same 404 for "elsewhere" and "nowhere".
MATCH (i:Instance {env: $env, resource: $resource, key: $key})
RETURN i.tenant AS tenant

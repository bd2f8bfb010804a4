// @row { instance: InstanceNode }
// By the reference rule: the instance whose "type:key" is the reference ($resource, $key: null
// when it has no ':'), else the instance whose id is $ref.
OPTIONAL MATCH (byKey:Instance {env: $env, resource: $resource, key: $key})
OPTIONAL MATCH (byId:Instance {id: $ref}) WHERE byId.env = $env
// #include fragments/keyElseId
WITH referenced AS i WHERE i IS NOT NULL
OPTIONAL MATCH (r:Resource {env: $env, key: i.resource})
OPTIONAL MATCH (t:Tenant {env: $env, key: i.tenant})
RETURN i {.*, resource_id: r.id, tenant_id: t.id} AS instance

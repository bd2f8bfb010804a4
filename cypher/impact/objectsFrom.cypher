// @row { objects: { type: string; key: string; tenant: string; actions: string[] }[] }
// The instance $resource:$key and every instance reached from it through relationship tuples and
// resource groups (the walk's steps, subject -> object, within 100 hops: the largest
// MAX_DERIVATION_DEPTH), each with the actions of its resource: the objects whose access a change
// of that instance (its deletion, its attributes) can take away (an impact preview's candidates).
OPTIONAL MATCH (i:Instance {env: $env, resource: $resource, key: $key})
CALL (i) {
  MATCH (i)-[:RELATED|GROUPS*0..100]->(o:Instance {env: $env})
  WITH DISTINCT o
  OPTIONAL MATCH (r:Resource {env: $env, key: o.resource})
  RETURN collect({type: o.resource, key: o.key, tenant: o.tenant, actions: coalesce(r.actions, [])}) AS objects
}
RETURN objects

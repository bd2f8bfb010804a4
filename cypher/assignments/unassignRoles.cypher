// @invalidates $env
// @changes role_assignment:delete
// @row {
//   removed: number;
//   changed: {
//     key: string;
//     before: {
//       id: string;
//       user: string;
//       role: string;
//       tenant: string;
//       resource_instance: string | null;
//       created_at: string | null;
//       expires_at: string | null;
//     };
//   }[];
// }
// Removes the role assignments of $items that exist: tenant roles (no instance) and instance
// roles (in the item's tenant); answers how many (`removed`) and, read before the delete, each
// one's change (`changed`, see src/areas/changes/capture.ts): its key as the item names it
// (user/role/tenant[/resource/instance]) and its state as the API shows it.
UNWIND $items AS a
OPTIONAL MATCH (:User {env: $env, key: a.user})-[t:HAS_TENANT_ROLE {role: a.role}]->(:Tenant {env: $env, key: a.tenant})
WHERE a.instance IS NULL
OPTIONAL MATCH (:User {env: $env, key: a.user})-[r:HAS_ROLE {role: a.role}]->(i:Instance {env: $env, resource: a.resource, key: a.instance})
WHERE coalesce(r.tenant, i.tenant) = a.tenant
WITH a, coalesce(t, r) AS e, i
WHERE e IS NOT NULL
WITH e, head(collect(a)) AS a, head(collect(i)) AS i
WITH collect({edge: e, key: a.user + '/' + a.role + '/' + a.tenant + CASE WHEN i IS NULL THEN '' ELSE '/' + i.resource + '/' + i.key END,
              before: {id: coalesce(e.id, elementId(e)), user: a.user, role: e.role, tenant: a.tenant,
                       resource_instance: CASE WHEN i IS NULL THEN null ELSE i.resource + ':' + i.key END, created_at: e.created_at,
                       expires_at: CASE WHEN e.expires_at IS NULL THEN null
                                   ELSE left(toString(datetime({epochMillis: e.expires_at})), 19) + '.' + right('00' + toString(e.expires_at % 1000), 3) + 'Z' END}}) AS found
FOREACH (e IN [f IN found | f.edge] | DELETE e)
RETURN size(found) AS removed, [f IN found | {key: f.key, before: f.before}] AS changed

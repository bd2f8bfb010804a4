import { paging } from '../../http/paging';
import type { RouteSpec } from '../../http/routeTable';
import { arr, envelope, obj, str } from '../../http/schema';
import * as s from './schemas';
import type { GroupsService } from './service';

const base = '/v2/schema/:proj_id/:env_id/groups/direct';

/** Permit's group role: `{role, resource, resource_instance, tenant}`. */
const groupRole = obj({ role: str(), resource: str(), resource_instance: str(), tenant: str() });
const directGroup = { ...s.group, properties: { ...(s.group.properties as object), group_roles: arr(groupRole) } };

type GroupView = ReturnType<GroupsService['groupView']>;

/**
 * The group with `group_roles`: its direct role grants, parsed from `assigned_roles`
 * ("<resource>:<instance>#<role>"; resource keys have no ':' and role keys no '#', so the
 * first ':' and the last '#' split it even when the instance key holds either).
 */
export function directView(g: GroupView) {
  const group_roles = g.assigned_roles.map((text) => {
    const colon = text.indexOf(':');
    const hash = text.lastIndexOf('#');
    return {
      role: text.slice(hash + 1),
      resource: text.slice(0, colon),
      resource_instance: text.slice(colon + 1, hash),
      tenant: g.group_tenant,
    };
  });
  return { ...g, group_roles };
}

const tag = 'Groups';
/**
 * Permit's "direct" group reads (`/groups/direct`, `/groups/direct/{group}`): the group with its
 * direct members and direct role grants, nothing derived. Registered before `/groups/{key}`.
 */
export const directGroupRoutes: RouteSpec<GroupsService>[] = [
  {
    method: 'GET',
    path: base,
    auth: 'env',
    tag,
    summary: 'List groups with their direct members and role grants',
    schemas: { params: s.params, query: s.listQuery, response: envelope(directGroup) },
    handler: async (r, svc) => {
      const page = await svc.listGroups(r.scope, r.query, paging(r.query));
      return { ...page, data: page.data.map(directView) };
    },
  },
  {
    method: 'GET',
    path: `${base}/:group_key`,
    auth: 'env',
    tag,
    summary: 'Get a group with its direct members and role grants',
    schemas: { params: s.groupParams, response: directGroup },
    handler: async (r, svc) => directView(await svc.getGroup(r.scope, r.params.group_key)),
  },
];

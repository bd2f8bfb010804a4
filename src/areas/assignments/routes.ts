import { forbidden } from '../../errors';
import { paging } from '../../http/paging';
import { route, type RouteSpec } from '../../http/routeTable';
import * as s from './schemas';
import type { RoleAssignmentsService } from './service';
import type { TupleInput, TuplesService } from './tuplesService';

const base = '/v2/facts/:proj_id/:env_id';

const itemsOf = (body: TupleInput[] | { operations?: TupleInput[]; idents?: TupleInput[] }): TupleInput[] =>
  Array.isArray(body) ? body : (body.operations ?? body.idents ?? []);

const tag = 'Role assignments and relationship tuples';
const ra = `${base}/role_assignments`;
const rt = `${base}/relationship_tuples`;
export const assignmentRoutes: RouteSpec<{ roles: RoleAssignmentsService; tuples: TuplesService }>[] = [
  route({
    method: 'POST',
    path: ra,
    auth: 'env',
    tag,
    summary: 'Assign a role (tenant-level, or on a resource instance)',
    schemas: { params: s.params, body: s.assignment, response: s.assignmentRead },
    handler: (r, { roles }) => roles.assign(r.scope, r.body),
  }),
  route({
    method: 'DELETE',
    path: ra,
    auth: 'env',
    tag,
    summary: 'Unassign a role',
    status: 204,
    schemas: { params: s.params, body: s.assignment },
    handler: (r, { roles }) => roles.unassign(r.scope, r.body),
  }),
  route({
    method: 'GET',
    path: ra,
    auth: 'env',
    tag,
    summary: "List role assignments (`detailed=true`: Permit's RoleAssignmentDetailedRead)",
    schemas: { params: s.params, query: s.assignmentQuery, response: s.assignmentList },
    handler: (r, { roles }) =>
      r.query.detailed
        ? roles.listDetailed(r.scope, r.query, paging(r.query), r.query.include_total_count)
        : roles.list(r.scope, r.query, paging(r.query), r.query.include_total_count),
  }),
  route({
    method: 'GET',
    path: '/local/role_assignments',
    auth: 'key',
    tag,
    summary: "Permit's local PDP list of role assignments (`permit.pdp_api.role_assignments.list`; environment key)",
    schemas: { query: s.localAssignmentQuery, response: s.localAssignmentList },
    handler: (r, { roles }) => {
      if (!r.scope) throw forbidden('The Permit PDP paths need an environment key; /local/role_assignments has no admin form.');
      const { user, role, tenant, resource, resource_instance } = r.query;
      return roles.listLocal(
        r.scope,
        {
          user: user ? [user] : undefined,
          role: role ? [role] : undefined,
          tenant: tenant ? [tenant] : undefined,
          resource,
          resource_instance,
        },
        paging(r.query),
      );
    },
  }),
  route({
    method: 'POST',
    path: `${base}/users/:user_id/roles`,
    auth: 'env',
    tag,
    summary: "Assign a role to the user (Permit's users.assignRole)",
    schemas: { params: s.userRoleParams, body: s.userRole, response: s.assignmentRead },
    handler: (r, { roles }) => roles.assign(r.scope, { ...r.body, user: r.params.user_id }),
  }),
  route({
    method: 'DELETE',
    path: `${base}/users/:user_id/roles`,
    auth: 'env',
    tag,
    summary: "Unassign a role from the user (Permit's users.unassignRole)",
    status: 204,
    schemas: { params: s.userRoleParams, body: s.userRole },
    handler: (r, { roles }) => roles.unassign(r.scope, { ...r.body, user: r.params.user_id }),
  }),
  route({
    method: 'POST',
    path: `${ra}/bulk`,
    auth: 'env',
    tag,
    heavy: true,
    summary: 'Assign roles in bulk (one transaction, all or nothing)',
    schemas: { params: s.params, body: s.assignmentBulk, response: s.assignmentsCreated },
    handler: (r, { roles }) => roles.assignBulk(r.scope, r.body),
  }),
  route({
    method: 'DELETE',
    path: `${ra}/bulk`,
    auth: 'env',
    tag,
    heavy: true,
    summary: 'Unassign roles in bulk (one transaction)',
    schemas: { params: s.params, body: s.assignmentBulk, response: s.assignmentsRemoved },
    handler: (r, { roles }) => roles.unassignBulk(r.scope, r.body),
  }),

  route({
    method: 'POST',
    path: rt,
    auth: 'env',
    tag,
    summary: 'Create a relationship tuple (creates missing instances when a tenant is given)',
    schemas: { params: s.params, body: s.tuple, response: s.tupleRead },
    handler: (r, { tuples }) => tuples.create(r.scope, r.body),
  }),
  route({
    method: 'DELETE',
    path: rt,
    auth: 'env',
    tag,
    summary: 'Delete a relationship tuple',
    status: 204,
    schemas: { params: s.params, body: s.tuple },
    handler: (r, { tuples }) => tuples.delete(r.scope, r.body),
  }),
  route({
    method: 'GET',
    path: rt,
    auth: 'env',
    tag,
    summary: "List relationship tuples (`detailed=true`: Permit's RelationshipTupleDetailedRead)",
    schemas: { params: s.params, query: s.tupleQuery, response: s.tupleList },
    handler: (r, { tuples }) =>
      r.query.detailed ? tuples.listDetailed(r.scope, r.query, paging(r.query)) : tuples.list(r.scope, r.query, paging(r.query)),
  }),
  route({
    method: 'POST',
    path: `${rt}/bulk`,
    auth: 'env',
    tag,
    heavy: true,
    summary: 'Create relationship tuples in bulk (one transaction, all or nothing)',
    schemas: { params: s.params, body: s.tupleBulkCreate, response: s.tuplesCreated },
    handler: (r, { tuples }) => tuples.createBulk(r.scope, itemsOf(r.body)),
  }),
  route({
    method: 'DELETE',
    path: `${rt}/bulk`,
    auth: 'env',
    tag,
    heavy: true,
    summary: 'Delete relationship tuples in bulk (one transaction)',
    schemas: { params: s.params, body: s.tupleBulkDelete, response: s.tuplesRemoved },
    handler: (r, { tuples }) => tuples.deleteBulk(r.scope, itemsOf(r.body)),
  }),
];

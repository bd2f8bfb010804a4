import { allowLongBody } from '../../http/bodies';
import type { RouteSpec } from '../../http/routeTable';
import { route } from '../../http/routeTable';
import type { TNumber } from '@sinclair/typebox';
import { int, obj, PROJ_ENV_PARAMS } from '../../http/schema';
import type { SnapshotService } from './service';

const tag = 'Export and import';
const summary = obj({ nodes: int({ minimum: 0 }), relationships: int({ minimum: 0 }), seconds: { type: 'number' } as unknown as TNumber }, [
  'nodes',
  'relationships',
  'seconds',
]);

/**
 * Export and import of an environment (docs/behaviour.md section 16): the admin key only (an export holds
 * approvals' reasons). Both stream: JSON lines (src/areas/snapshots/format.ts).
 */
export const snapshotRoutes: RouteSpec<SnapshotService>[] = [
  route({
    method: 'GET',
    path: '/v2/export/:proj_id/:env_id',
    auth: 'env',
    adminOnly: true,
    tag,
    produces: 'application/x-ndjson',
    summary: "One consistent snapshot of the environment's records as JSON lines (never keys, sessions or secrets)",
    schemas: { params: PROJ_ENV_PARAMS },
    handler: async (r, svc) => {
      const stream = await svc.exportStream(r.scope);
      r.ctx.type = 'application/x-ndjson';
      r.ctx.set('content-disposition', `attachment; filename="${r.scope.projectKey}-${r.scope.envKey}.ndjson"`);
      return stream;
    },
  }),
  route({
    method: 'POST',
    path: '/v2/import/:proj_id/:env_id',
    auth: 'env',
    adminOnly: true,
    streamsBody: true,
    duringImport: true,
    tag,
    summary: 'Loads an export (JSON lines, streamed, up to IMPORT_MAX_BYTES) into an empty environment, all or nothing',
    schemas: { params: PROJ_ENV_PARAMS, response: summary },
    handler: (r, svc) => {
      // Read as fast as its batches are written, for as long as that takes: not bound by the 30-s request timeout.
      allowLongBody(r.ctx.req, r.ctx.res);
      return svc.import(r.scope, r.ctx.req, r.log);
    },
  }),
];

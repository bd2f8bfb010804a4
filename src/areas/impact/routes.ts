import { route, type RouteSpec } from '../../http/routeTable';
import * as s from './schemas';
import type { ImpactService } from './service';

/** The impact preview (docs/console.md#impact-preview): what intended writes would take away, nothing kept. */
export const impactRoutes: RouteSpec<ImpactService>[] = [
  route({
    method: 'POST',
    path: '/v2/impact/:proj_id/:env_id',
    auth: 'env',
    tag: 'Impact',
    heavy: true,
    summary:
      'Every (user, action, object) intended writes would take away: allowed now, denied after, computed by the decision engine in a rolled-back transaction (admin key or write key; nothing is kept)',
    schemas: { params: s.params, body: s.previewBody, response: s.preview },
    handler: (r, svc) => svc.preview(r.scope, r.body),
  }),
];

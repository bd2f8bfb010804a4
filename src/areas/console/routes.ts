import type { Context } from 'koa';
import { notFound } from '../../errors';
import type { RouteSpec } from '../../http/routeTable';
import { paging } from '../../http/paging';
import { envelope, idOrKey, nullable, obj, PAGING_QUERY, PROJ_ENV_PARAMS, str } from '../../http/schema';
import type { ApprovalsQueueService } from './service';
import type { StaticFile } from './staticFiles';

/**
 * Scripts only from this origin (no inline script, no eval), no framing, nothing fetched from
 * elsewhere: the pages work offline and a stolen page cannot be embedded. Cytoscape and Swagger
 * UI set style attributes, so inline styles are allowed (inline scripts never are).
 */
const CSP_CONSOLE =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const CSP_DOCS =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function serve(ctx: Context, file: StaticFile | undefined, name: string, csp: string): Buffer {
  if (!file) throw notFound('Console file', `${name} (run "npm run build" to build the console)`);
  ctx.set('Content-Security-Policy', csp);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
  ctx.set('Cache-Control', 'no-cache');
  ctx.type = file.type;
  return file.body;
}

const fileParam = { file: str({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._-]+$' }) };
const STATUSES = ['pending', 'approved', 'denied', 'canceled'];
const TYPES = ['operation_approval', 'access_request'];
const queuedApproval = obj({
  id: str(),
  type: str({ enum: TYPES }),
  /** An access request's role; null for an operation approval. */
  role: nullable(str()),
  elements_config_id: str(),
  elements_config_key: nullable(str()),
  tenant: str(),
  resource: str(),
  resource_instance: str(),
  requesting_user_id: str(),
  reason: nullable(str()),
  status: str({ enum: STATUSES }),
  reviewer_user_id: nullable(str()),
  reviewed_at: nullable(str()),
  reviewer_comment: nullable(str()),
  created_at: str(),
});

/**
 * The admin console (`/console`) and the API reference (`/docs`): static pages built by
 * `npm run build`; and the console's one endpoint of its own, the approvals queue (admin only).
 */
export interface ConsoleDeps {
  queue: ApprovalsQueueService;
  /** The built pages and files (src/areas/console/staticFiles.ts: `loadStaticFiles(findConsoleDir())`). */
  files: Map<string, StaticFile>;
}

const tag = 'Console';
export const consoleRoutes: RouteSpec<ConsoleDeps>[] = [
  {
    method: 'GET',
    path: '/console',
    auth: 'public',
    produces: 'text/html',
    tag,
    summary: 'The admin console (an HTML page; sign in with the admin key)',
    schemas: {},
    handler: async (r, { files }) => serve(r.ctx, files.get('index.html'), 'index.html', CSP_CONSOLE),
  },
  {
    method: 'GET',
    path: '/console/:file',
    auth: 'public',
    produces: '*/*',
    tag,
    summary: 'A script, style or image of the admin console',
    schemas: { params: fileParam },
    handler: async (r, { files }) => serve(r.ctx, files.get(r.params.file), r.params.file, CSP_CONSOLE),
  },
  {
    method: 'GET',
    path: '/docs',
    auth: 'public',
    produces: 'text/html',
    tag,
    summary: 'The API reference (an HTML page rendering /v2/openapi.json)',
    schemas: {},
    handler: async (r, { files }) => serve(r.ctx, files.get('docs/index.html'), 'docs/index.html', CSP_DOCS),
  },
  {
    method: 'GET',
    path: '/docs/:file',
    auth: 'public',
    produces: '*/*',
    tag,
    summary: 'A script or style of the API reference',
    schemas: { params: fileParam },
    handler: async (r, { files }) => serve(r.ctx, files.get(`docs/${r.params.file}`), r.params.file, CSP_DOCS),
  },
  {
    method: 'GET',
    path: '/v2/console/:proj_id/:env_id/approvals',
    auth: 'env',
    tag,
    summary:
      'Every operation approval and access request of the environment, across configs and sessions, pending first (admin key only; decided by a reviewer through their elements session)',
    schemas: {
      params: PROJ_ENV_PARAMS,
      query: obj({ ...PAGING_QUERY, config: idOrKey(), status: str({ enum: STATUSES }), type: str({ enum: TYPES }) }),
      response: envelope(queuedApproval),
    },
    handler: (r, { queue }) => queue.list(r.principal, r.scope, r.query, paging(r.query)),
  },
];

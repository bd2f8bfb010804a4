import { SESSION_COOKIE } from './auth/types';
import { buildOpenApi } from './http/openapi';
import { bindRoutes, type DepsOf, type RouteDef, type RouteInfo, type RouteSpec } from './http/routeTable';
import { accessRequestRoutes } from './areas/accessRequests/routes';
import { approvalRoutes } from './areas/approvals/routes';
import { assignmentRoutes } from './areas/assignments/routes';
import { auditRoutes } from './areas/audit/routes';
import { authzenRoutes } from './areas/authzen/routes';
import { changesRoutes } from './areas/changes/routes';
import { conditionsRoutes } from './areas/conditions/routes';
import { consoleRoutes } from './areas/console/routes';
import { decisionLogRoutes } from './areas/decisionLog/routes';
import { decisionRoutes } from './areas/decisions/routes';
import { elementsRoutes } from './areas/elements/routes';
import { factsBulkRoutes } from './areas/facts/bulkRoutes';
import { factsRoutes } from './areas/facts/routes';
import { graphRoutes } from './areas/graph/routes';
import { groupsRoutes } from './areas/groups/routes';
import { healthRoutes } from './areas/health/routes';
import { impactRoutes } from './areas/impact/routes';
import { metaRoutes } from './areas/meta/routes';
import { metricsRoutes } from './areas/metrics/routes';
import { environmentCopyRoutes } from './areas/policy/copyRoutes';
import { policyRoutes } from './areas/policy/routes';
import { provisioningRoutes } from './areas/provisioning/routes';
import { provisioningUpdateRoutes } from './areas/provisioning/updateRoutes';
import { roleExtrasRoutes } from './areas/schema/roleExtrasRoutes';
import { instanceRoutes, schemaRoutes } from './areas/schema/routes';
import { instancesBulkRoutes } from './areas/schema/instancesBulkRoutes';
import { sessionRoutes } from './areas/sessions/routes';
import { snapshotRoutes } from './areas/snapshots/routes';
import { tenantAccessRoutes } from './areas/tenantAccess/routes';
import { urlMappingRoutes } from './areas/urlMapping/routes';
import { userInviteRoutes } from './areas/userInvites/routes';

/**
 * Every route table the service serves, in the order they are matched and documented. A table is
 * data (src/http/routeTable.ts, `RouteSpec`): read as it is for the OpenAPI document, bound to
 * its area's services by the composition root (src/compose.ts), which must give each table
 * what its handlers use (`RouteTableDeps`: the compiler names a table left without them).
 * A new area adds its table here, and its services in src/compose.ts.
 */
export const routeTables = {
  health: healthRoutes,
  provisioning: provisioningRoutes,
  provisioningUpdates: provisioningUpdateRoutes,
  facts: factsRoutes,
  factsBulk: factsBulkRoutes,
  decisions: decisionRoutes,
  tenantAccess: tenantAccessRoutes,
  graph: graphRoutes,
  schema: schemaRoutes,
  policy: policyRoutes,
  environmentCopy: environmentCopyRoutes,
  snapshots: snapshotRoutes,
  roleExtras: roleExtrasRoutes,
  conditions: conditionsRoutes,
  instances: instanceRoutes,
  instancesBulk: instancesBulkRoutes,
  assignments: assignmentRoutes,
  groups: groupsRoutes,
  elements: elementsRoutes,
  sessions: sessionRoutes,
  approvals: approvalRoutes,
  accessRequests: accessRequestRoutes,
  console: consoleRoutes,
  changes: changesRoutes,
  audit: auditRoutes,
  impact: impactRoutes,
  decisionLog: decisionLogRoutes,
  urlMapping: urlMappingRoutes,
  userInvites: userInviteRoutes,
  metrics: metricsRoutes,
  authzen: authzenRoutes,
  // Last: the document describes every route above.
  meta: metaRoutes,
};

type Tables = typeof routeTables;
/** What each table's handlers are given. */
export type RouteTableDeps = { [K in keyof Tables]: DepsOf<Tables[K]> };

/** Every route, each table bound to what its handlers use. */
export function bindRouteTables(deps: RouteTableDeps): RouteDef[] {
  return (Object.keys(routeTables) as (keyof Tables)[]).flatMap((k) => bindRoutes(routeTables[k] as RouteSpec<unknown>[], deps[k]));
}

/** Every route as declared, without a service behind it: what the OpenAPI document reads. */
export const declaredRoutes = (): RouteInfo[] => Object.values(routeTables).flat();

/** The document `GET /v2/openapi.json` answers, for the OpenAPI tests and scripts/gen-client-types.cjs too. */
export const servedDocument = () => buildOpenApi(declaredRoutes(), { sessionCookieName: SESSION_COOKIE });

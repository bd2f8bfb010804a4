import type { AppDeps } from '../appDeps';
import { ExpirySweep } from './assignments/expirySweep';
import { BearerAuthenticator } from '../auth/authenticator';
import { SecretGate } from '../auth/secretGate';
import { RouteDef } from '../http/routeTable';
import { graphRoutes } from './graph/routes';
import { GraphService } from './graph/service';
import { GraphStore } from './graph/store';
import { healthRoutes } from './health/routes';
import { metaRoutes } from './meta/routes';
import { provisioningRoutes } from './provisioning/routes';
import { provisioningUpdateRoutes, ProvisioningUpdates } from './provisioning/updates';
import { ProvisioningService } from './provisioning/service';
import { ProvisioningStore } from './provisioning/store';
import { decisionRoutes } from './decisions/routes';
import { DecisionService } from './decisions/service';
import { DecisionStore } from './decisions/store';
import { factsBulkRoutes } from './facts/bulkRoutes';
import { FactsBulkService } from './facts/bulkService';
import { FactsBulkStore } from './facts/bulkStore';
import { ListObjectsService, ListObjectsStore } from './decisions/listObjects';
import { factsRoutes } from './facts/routes';
import { FactsService } from './facts/service';
import { FactsStore } from './facts/store';
import { schemaAreaRoutes } from './schema/wire';
import { assignmentAreaRoutes } from './assignments/wire';
import { RoleAssignmentsService } from './assignments/service';
import { AssignmentsStore } from './assignments/store';
import { groupsRoutes } from './groups/routes';
import { GroupsService } from './groups/service';
import { GroupsStore } from './groups/store';
import { elementsRoutes } from './elements/routes';
import { sessionRoutes } from './sessions/routes';
import { SessionService } from './sessions/service';
import { SessionStore } from './sessions/store';
import { ElementsService } from './elements/service';
import { ElementsStore } from './elements/store';
import { approvalRoutes } from './approvals/routes';
import { tenantAccessRoutes } from './tenantAccess/routes';
import { TenantAccessService } from './tenantAccess/service';
import { ApprovalService } from './approvals/service';
import { ApprovalStore } from './approvals/store';
import { accessRequestRoutes } from './accessRequests/routes';
import { WebhookDispatcher } from './webhooks/dispatcher';
import { WebhookOutbox } from './webhooks/outbox';
import { WebhookStore } from './webhooks/store';
import { AccessRequestService } from './accessRequests/service';
import { AccessRequestStore } from './accessRequests/store';
import { ApprovalsQueueService, ApprovalsQueueStore } from './console/approvalsQueue';
import { consoleRoutes } from './console/routes';
import { DbGauges } from '../metrics/gauges';
import { metricsRoutes } from '../metrics/routes';
import { changesRoutes } from './changes/routes';
import { auditRoutes } from './audit/routes';
import { DecisionLog } from './decisionLog/log';
import { RetentionSweeper } from './changes/retention';
import { decisionObserver } from './decisionLog/observer';
import { decisionLogRoutes, DecisionLogReader } from './decisionLog/routes';
import { AuditService } from './audit/service';
import { ChangesService } from './changes/service';
import { ChangeStore } from './changes/store';
import { admissionQueues, admitHeavy } from './admission';
import { policyRoutes } from './policy/routes';
import { PolicyService } from './policy/service';
import { PolicyStore } from './policy/store';

/** How often old change events, audit events and decision logs are swept (AUDIT_RETENTION_DAYS). */
const RETENTION_SWEEP_MS = 3_600_000;

/** How often expired grant edges are deleted (they grant nothing from their expiry anyway). */
const EXPIRY_SWEEP_MS = 60_000;

/** Wires every area: store (named Cypher) -> service (domain) -> route table. */
export function buildAreas(deps: AppDeps) {
  const provisioningStore = new ProvisioningStore(deps.db);
  const provisioning = new ProvisioningService(provisioningStore, deps.config.orgId);
  // One gate for API keys and session tokens: the bound on lookups of unknown secrets is global.
  const secretGate = new SecretGate({ failureTtlMs: deps.config.authFailureTtlMs, lookupsInFlight: deps.config.authLookupsInFlight, waitMs: deps.config.authLookupWaitMs });
  const authenticator = new BearerAuthenticator(provisioningStore, deps.adminKeyHash, deps.config.orgId, deps.revisions, secretGate);
  const facts = new FactsService(new FactsStore(deps.db), new RoleAssignmentsService(new AssignmentsStore(deps.db)));
  const revisions = deps.revisions;
  revisions.useWindow(deps.config.coherenceWindowMs);
  revisions.start(deps.config.revisionPollMs, deps.log);
  // Expired grants are ignored by every decision at once; the sweep only deletes them later.
  const expirySweep = new ExpirySweep(deps.db);
  expirySweep.start(EXPIRY_SWEEP_MS, deps.log.child({ area: 'expiry' }));
  const rule = { maxDepth: deps.config.maxDerivationDepth, defaultTenant: deps.config.defaultTenant };
  const admission = admissionQueues(deps.config, deps.metrics);
  const decisions = new DecisionService(
    new DecisionStore(deps.db, rule, admission.checks), deps.config.maxDerivationDepth, revisions, deps.config.decisionCacheSize,
  );
  const listObjects = new ListObjectsService(new ListObjectsStore(deps.db, rule), revisions);

  const decisionLog = new DecisionLog(deps.db, { sample: deps.config.decisionLogSample, flushMs: deps.config.decisionLogFlushMs, onDrop: () => deps.metrics.decisionLogDropped.inc() }, deps.log);
  decisions.observer = decisionObserver(deps.metrics, decisionLog);
  decisionLog.start();
  const retention = new RetentionSweeper(deps.db, deps.config.auditRetentionDays);
  retention.start(RETENTION_SWEEP_MS, deps.log);

  const elements = new ElementsService(new ElementsStore(deps.db), deps.config.webhookBlockedNetworks);
  const sessions = new SessionService(new SessionStore(deps.db), {
    ttlSeconds: deps.config.sessionTtlSeconds, cookieSecure: deps.config.cookieSecure, orgId: deps.config.orgId,
  }, secretGate);
  authenticator.sessions = sessions;
  const webhookStore = new WebhookStore(deps.db);
  const outbox = new WebhookOutbox(webhookStore);
  const webhooks = new WebhookDispatcher(webhookStore, { pollMs: deps.config.webhookPollMs, retryBaseMs: deps.config.webhookRetryBaseMs, blocked: deps.config.webhookBlockedNetworks }, deps.log.child({ area: 'webhooks' }));
  webhooks.start();
  const approvalStore = new ApprovalStore(deps.db, deps.config.elementsRequestsPerHour);
  const approvals = new ApprovalService(approvalStore, elements, decisions, outbox);
  const accessRequests = new AccessRequestService(new AccessRequestStore(deps.db, approvalStore), approvalStore, elements, decisions, outbox);

  const metricsGauges = new DbGauges(deps.metrics, deps.db, revisions);
  metricsGauges.start(deps.config.metricsRefreshMs, deps.log.child({ area: 'metrics' }));

  const routes: RouteDef[] = admitHeavy([
    ...healthRoutes(deps),
    ...provisioningRoutes(provisioning, deps.config.orgId),
    ...provisioningUpdateRoutes(new ProvisioningUpdates(deps.db, provisioning)),
    ...factsRoutes(facts),
    ...factsBulkRoutes(new FactsBulkService(new FactsBulkStore(deps.db))),
    ...decisionRoutes(decisions, listObjects),
    ...tenantAccessRoutes(new TenantAccessService(deps.db, decisions), authenticator),
    ...graphRoutes(new GraphService(new GraphStore(deps.db, deps.config.maxDerivationDepth))),
    ...schemaAreaRoutes(deps.db),
    ...policyRoutes(new PolicyService(new PolicyStore(deps.db))),
    ...assignmentAreaRoutes(deps.db),
    ...groupsRoutes(new GroupsService(new GroupsStore(deps.db))),
    ...elementsRoutes(elements),
    ...sessionRoutes(sessions),
    ...approvalRoutes(approvals),
    ...accessRequestRoutes(accessRequests),
    ...consoleRoutes(new ApprovalsQueueService(new ApprovalsQueueStore(deps.db))),
    ...changesRoutes(new ChangesService(new ChangeStore(() => deps.db))),
    ...auditRoutes(new AuditService(deps.db)),
    ...decisionLogRoutes(new DecisionLogReader(deps.db)),
    ...metricsRoutes(deps.metrics, metricsGauges, deps.config.metricsToken),
  ], admission.heavy);
  // Keep last: the OpenAPI document describes every route in `routes`, read on first request.
  routes.push(...metaRoutes(() => routes));
  return { routes, admission, authenticator, provisioning, facts, decisions, revisions, decisionLog, retention, expirySweep, webhooks, metricsGauges };
}


import type { Logger } from 'pino';
import { type App, createApp } from './app';
import { SecretGate } from './auth/secretGate';
import type { Config } from './config';
import type { Db } from './db/db';
import type { Replicas } from './db/replicas';
import { admissionQueues, admitHeavy } from './http/admission';
import { BearerAuthenticator } from './http/authenticator';
import type { RouteDef } from './http/routeTable';
import type { WalkSelection } from './db/walkSelection';
import type { Metrics } from './metrics/metrics';
import { EnvironmentCopier } from './areas/policy/environmentCopy';
import { PolicyService } from './areas/policy/service';
import { PolicyStore } from './areas/policy/store';
import { SnapshotService } from './areas/snapshots/service';
import { SnapshotStore } from './areas/snapshots/store';
import { bindRouteTables, servedDocument } from './routeTables';
import { job, type Job } from './util/jobs';
import { AccessRequestService } from './areas/accessRequests/service';
import { AccessRequestStore } from './areas/accessRequests/store';
import { ApprovalService } from './areas/approvals/service';
import { ApprovalStore } from './areas/approvals/store';
import { ExpiryStore } from './areas/assignments/expiryStore';
import { ExpirySweep } from './areas/assignments/expirySweep';
import { RoleAssignmentsService } from './areas/assignments/service';
import { AssignmentsStore } from './areas/assignments/store';
import { TuplesService } from './areas/assignments/tuplesService';
import { AuditService } from './areas/audit/service';
import { AuditStore } from './areas/audit/store';
import { AuthzenDecisions } from './areas/authzen/decisions';
import { AuthzenService } from './areas/authzen/service';
import { RetentionSweeper } from './areas/changes/retention';
import { RetentionStore } from './areas/changes/retentionStore';
import { ChangesService } from './areas/changes/service';
import { ChangeStore } from './areas/changes/store';
import { ApprovalsQueueService } from './areas/console/service';
import { ApprovalsQueueStore } from './areas/console/store';
import { findConsoleDir, loadStaticFiles } from './areas/console/staticFiles';
import { DecisionLog } from './areas/decisionLog/log';
import { decisionObserver } from './areas/decisionLog/observer';
import { DecisionLogReader } from './areas/decisionLog/reader';
import { DecisionLogStore } from './areas/decisionLog/store';
import { ListObjectsService } from './areas/decisions/listObjects';
import { CypherWalk } from './areas/decisions/walkStore';
import { DecisionEngine } from './areas/decisions/engine';
import type { Revisions } from './areas/decisions/revisions';
import { DecisionService } from './areas/decisions/service';
import { SetRules } from './areas/conditions/rules';
import { ConditionsService } from './areas/conditions/service';
import { ConditionsStore } from './areas/conditions/store';
import { ElementsService } from './areas/elements/service';
import { ElementsStore } from './areas/elements/store';
import { FactsBulkService } from './areas/facts/bulkService';
import { FactsBulkStore } from './areas/facts/bulkStore';
import { FactsService } from './areas/facts/service';
import { FactsStore } from './areas/facts/store';
import { GraphService } from './areas/graph/service';
import { GraphStore } from './areas/graph/store';
import { GroupsService } from './areas/groups/service';
import { GroupsStore } from './areas/groups/store';
import { HealthStore } from './areas/health/store';
import { ImpactService } from './areas/impact/service';
import { ImpactStore } from './areas/impact/store';
import { DbGauges } from './areas/metrics/gauges';
import { metricsTokenDigest } from './areas/metrics/routes';
import { MetricsStore } from './areas/metrics/store';
import { ProvisioningService } from './areas/provisioning/service';
import { ProvisioningStore } from './areas/provisioning/store';
import { ProvisioningUpdates } from './areas/provisioning/updates';
import { UserInvitesService } from './areas/userInvites/service';
import { UserInvitesStore } from './areas/userInvites/store';
import { UrlMappingService } from './areas/urlMapping/service';
import { UrlMappingStore } from './areas/urlMapping/store';
import { ActionGroupsService } from './areas/schema/actionGroupsService';
import { ActionGroupsStore } from './areas/schema/actionGroupsStore';
import { ActionsService } from './areas/schema/actionsService';
import { HierarchyService } from './areas/schema/hierarchyService';
import { HierarchyStore } from './areas/schema/hierarchyStore';
import { InstancesBulkService } from './areas/schema/instancesBulk';
import { InstancesService } from './areas/schema/instancesService';
import { InstancesStore } from './areas/schema/instancesStore';
import { RoleExtrasService } from './areas/schema/roleExtrasService';
import { RolesService } from './areas/schema/rolesService';
import { SchemaService } from './areas/schema/service';
import { SchemaStore } from './areas/schema/store';
import { SessionService } from './areas/sessions/service';
import { SessionStore } from './areas/sessions/store';
import { TenantAccessService } from './areas/tenantAccess/service';
import { WebhookDispatcher } from './areas/webhooks/dispatcher';
import { WebhookOutbox } from './areas/webhooks/outbox';
import { WebhookStore } from './areas/webhooks/store';

/** How often old change events, audit events and decision logs are swept (AUDIT_RETENTION_DAYS). */
const RETENTION_SWEEP_MS = 3_600_000;

/** How often expired grant edges are deleted (they grant nothing from their expiry anyway). */
const EXPIRY_SWEEP_MS = 60_000;

/** What the root is given: the infrastructure src/boot.ts builds before the graph is migrated. */
export interface Infrastructure {
  /** The configuration, with the organisation id resolved (ORG_ID or the graph's, src/db/organization.ts). */
  config: Config & { orgId: string };
  log: Logger;
  /** The service's Db: writes move revisions and record change events. */
  db: Db;
  /** What this process knows of each environment's revision (the Db's revision listener). */
  revisions: Revisions;
  /** This replica's heartbeat and its view of the others (src/db/replicas.ts). */
  replicas: Replicas;
  /** The Prometheus metrics (GET /metrics); the Db reports its transactions to the same one. */
  metrics: Metrics;
  /** Which walk answers decisions: the extension or the Cypher walk (src/db/walkSelection.ts). */
  walk: WalkSelection;
  adminKeyHash: string;
  /** True once migrations are applied; /readyz answers 503 before. */
  isMigrated: () => boolean;
}

/**
 * The composition root: builds every store, service, route table and job of the service, in
 * the order they depend on each other, and nothing else builds any. Every object gets what it
 * uses through its constructor. Nothing runs yet: `jobs` lists the timers and pollers, started
 * and stopped by src/boot.ts in that order (and the reverse).
 */
export function compose(infra: Infrastructure) {
  const { config, log, db, revisions, replicas, metrics } = infra;

  // Decisions: the rule's settings, fair admission between environments, the decision log.
  const rule = { maxDepth: config.maxDerivationDepth, defaultTenant: config.defaultTenant };
  const admission = admissionQueues(config, metrics);
  const decisionLogStore = new DecisionLogStore(db);
  const decisionLog = new DecisionLog(
    decisionLogStore,
    { sample: config.decisionLogSample, flushMs: config.decisionLogFlushMs, onDrop: () => metrics.decisionLogDropped.inc() },
    log,
  );
  const conditionsStore = new ConditionsStore(db);
  const conditions = new ConditionsService(conditionsStore);
  const setRules = new SetRules(conditionsStore, config.defaultTenant);
  // The decision engine: the walk (the graph) and the set rules, combined once; every decision
  // endpoint, the console's effective roles and the approvals' reviewers ask it.
  const observer = decisionObserver(metrics, decisionLog);
  const engine = new DecisionEngine(
    new CypherWalk(
      db,
      rule,
      admission.checks,
      infra.walk,
      revisions ? (env, rev, sent) => revisions.learnRead(env, rev, sent) : undefined,
      config.decisionBatchHoldMs,
    ),
    revisions,
    setRules,
    config.decisionCacheSize,
    observer,
    config.listCacheSize,
  );
  const decisions = new DecisionService(engine, config.maxDerivationDepth, observer);
  const listObjects = new ListObjectsService(engine);

  // Keys, sessions and the authenticator. One gate for API keys and session tokens: the bound on
  // lookups of unknown secrets is global.
  const provisioningStore = new ProvisioningStore(db);
  const provisioning = new ProvisioningService(provisioningStore, config.orgId);
  const secretGate = new SecretGate({
    failureTtlMs: config.authFailureTtlMs,
    lookupsInFlight: config.authLookupsInFlight,
    waitMs: config.authLookupWaitMs,
  });
  const sessions = new SessionService(
    new SessionStore(db),
    { ttlSeconds: config.sessionTtlSeconds, cookieSecure: config.cookieSecure, orgId: config.orgId },
    secretGate,
  );
  const authenticator = new BearerAuthenticator({
    keys: provisioningStore,
    adminKeyHash: infra.adminKeyHash,
    orgId: config.orgId,
    freshness: revisions,
    gate: secretGate,
    sessions,
  });

  // Facts, schema, assignments, groups.
  const assignmentsStore = new AssignmentsStore(db, infra.walk);
  const assignments = new RoleAssignmentsService(assignmentsStore);
  const facts = new FactsService(new FactsStore(db), assignments);
  const schemaStore = new SchemaStore(db);
  const hierarchy = new HierarchyService(new HierarchyStore(db), schemaStore);
  const schema = new SchemaService(schemaStore, hierarchy, (tx, scope, resource, before, after) =>
    conditions.refuseAttributeChanges(tx, scope, resource, before, after),
  );
  const roles = new RolesService(schemaStore, hierarchy);
  const instancesStore = new InstancesStore(db);
  const instances = new InstancesService(instancesStore, schemaStore);
  const groups = new GroupsService(new GroupsStore(db));

  // Elements, approvals, access requests and their webhooks.
  const webhookStore = new WebhookStore(db);
  const elementsStore = new ElementsStore(db);
  const elements = new ElementsService(elementsStore, config.webhookBlockedNetworks, webhookStore);
  const outbox = new WebhookOutbox(webhookStore);
  const webhooks = new WebhookDispatcher(
    webhookStore,
    { pollMs: config.webhookPollMs, retryBaseMs: config.webhookRetryBaseMs, blocked: config.webhookBlockedNetworks },
    log.child({ area: 'webhooks' }),
  );
  const approvalStore = new ApprovalStore(db, config.elementsRequestsPerHour);
  const approvals = new ApprovalService(approvalStore, elements, engine, outbox);
  const accessRequests = new AccessRequestService(new AccessRequestStore(db, approvalStore), approvalStore, elements, engine, outbox);

  // Background work: expired grants are ignored by every decision at once, the sweep only deletes them later.
  const expirySweep = new ExpirySweep(new ExpiryStore(db));
  const retention = new RetentionSweeper(new RetentionStore(db), config.auditRetentionDays);
  const metricsGauges = new DbGauges(metrics, new MetricsStore(db), revisions);

  // Every route table bound to what its handlers use (src/routeTables.ts); the heavy ones admitted
  // per environment under a global bound.
  const policy = new PolicyService(new PolicyStore(db), elementsStore);
  let document: unknown;
  const routes: RouteDef[] = admitHeavy(
    bindRouteTables({
      health: { store: new HealthStore(db), isMigrated: infra.isMigrated, walk: () => infra.walk.current },
      provisioning: { svc: provisioning, orgId: config.orgId },
      provisioningUpdates: new ProvisioningUpdates(provisioningStore, provisioning),
      facts,
      factsBulk: new FactsBulkService(new FactsBulkStore(db)),
      decisions: { svc: decisions, listing: listObjects },
      tenantAccess: { svc: new TenantAccessService(engine), auth: authenticator },
      graph: new GraphService(new GraphStore(db), engine),
      schema: { svc: schema, roles },
      policy,
      environmentCopy: new EnvironmentCopier(policy, provisioning, config.orgId),
      snapshots: new SnapshotService(
        new SnapshotStore(db, infra.walk),
        config.importMaxBytes,
        config.exportHoldMs,
        {
          loaded: () => infra.walk.current.walk === 'extension',
          readMs: config.adminTimeoutMs,
        },
        (read, ms) => metrics.exportHeld.observe({ read }, ms / 1000),
        config.importBatchRows,
      ),
      conditions,
      roleExtras: {
        roles,
        extras: new RoleExtrasService(schemaStore, hierarchy),
        actions: new ActionsService(schemaStore),
        actionGroups: new ActionGroupsService(schemaStore, new ActionGroupsStore(db)),
      },
      instances,
      instancesBulk: new InstancesBulkService(instancesStore),
      assignments: { roles: assignments, tuples: new TuplesService(assignmentsStore) },
      groups,
      elements,
      sessions,
      approvals,
      accessRequests,
      console: { queue: new ApprovalsQueueService(new ApprovalsQueueStore(db)), files: loadStaticFiles(findConsoleDir()) },
      changes: new ChangesService(new ChangeStore(() => db)),
      audit: new AuditService(new AuditStore(db)),
      impact: new ImpactService(new ImpactStore(db), engine, { facts, assignments, groups, instances }),
      decisionLog: new DecisionLogReader(decisionLogStore),
      urlMapping: new UrlMappingService(new UrlMappingStore(db), decisions),
      userInvites: new UserInvitesService(new UserInvitesStore(db), assignments, facts),
      metrics: { metrics, gauges: metricsGauges, tokenDigest: metricsTokenDigest(config.metricsToken) },
      authzen: {
        svc: new AuthzenService(new AuthzenDecisions(engine, decisions, listObjects, schema)),
        publicBaseUrl: config.publicBaseUrl,
      },
      meta: { document: () => (document ??= servedDocument()) },
    }),
    admission.heavy,
  );

  const app: App = createApp({ config, log, metrics, routes, authenticator, revisionOf: (envId) => revisions.known(envId) });

  /** Started in this order once the graph is migrated, stopped in the reverse order. */
  const jobs: Job[] = [
    job(
      'revision poll',
      () => revisions.start(config.revisionPollMs, log),
      () => revisions.stop(),
    ),
    job(
      'expiry sweep',
      () => expirySweep.start(EXPIRY_SWEEP_MS, log.child({ area: 'expiry' })),
      () => expirySweep.stop(),
    ),
    job(
      'decision log',
      () => decisionLog.start(),
      async () => {
        decisionLog.stop();
        await decisionLog.flush(); // what is queued is written before the driver closes
      },
    ),
    job(
      'retention sweep',
      () => retention.start(RETENTION_SWEEP_MS, log),
      () => retention.stop(),
    ),
    job(
      'webhook dispatcher',
      () => webhooks.start(),
      () => webhooks.stop(),
    ),
    job(
      'metrics gauges',
      () => metricsGauges.start(config.metricsRefreshMs, log.child({ area: 'metrics' })),
      () => metricsGauges.stop(),
    ),
    // Replica heartbeats: alone (COHERENCE_WINDOW_MS=0), a replica needs none.
    job(
      'replica heartbeat',
      () => (config.coherenceWindowMs > 0 ? replicas.start(log.child({ area: 'replicas' })) : undefined),
      () => replicas.leave(),
    ),
  ];

  return {
    app,
    routes,
    jobs,
    admission,
    authenticator,
    provisioning,
    decisions,
    engine,
    revisions,
    decisionLog,
    retention,
    expirySweep,
    webhooks,
    metricsGauges,
  };
}

export type Composition = ReturnType<typeof compose>;

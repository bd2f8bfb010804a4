import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What a Neo4j transaction's failure was, for `authz_neo4j_errors_total{error}` (low cardinality). */
export type DbErrorKind = 'unavailable' | 'timeout' | 'conflict' | 'other';

/** Told of each Neo4j transaction by the Db (src/db/db.ts), which knows nothing of Prometheus. */
export interface TransactionObserver {
  transaction(mode: string, seconds: number, error?: DbErrorKind): void;
  /** A single-statement read that failed with a retriable error and is sent again (src/db/db.ts, readOnce). */
  retried?(mode: string): void;
  /**
   * A write transaction called a procedure of the walk extension that Neo4j has not loaded (restarted
   * without it since the last check): it rolled back, and is run once more after this is told
   * (src/db/db.ts, write), when the walk selection has turned to the Cypher statements.
   */
  procedureMissing?(): void;
}

/** A question as the decision service asked it. */
export interface AskedCheck {
  user: string;
  action: string;
  type: string;
  key: string | null;
  tenant: string | null;
}

/** Told of decisions by the decision service: each answer (with its reason when explained), and cache lookups. */
export interface DecisionObserver {
  decided(env: string, checks: AskedCheck[], answers: boolean[], reasons?: string[]): void;
  cacheLookups(hits: number, misses: number): void;
  /** A list-objects page outside `fully_consistent`: read from a kept list, or walked. */
  listPages(fromKept: boolean): void;
}

/**
 * The service's Prometheus metrics (GET /metrics). One registry per service instance, not
 * prom-client's global one, so that several services in one process (tests) do not collide.
 * Labels are bounded sets: route templates (never raw paths), status codes, results, modes.
 */
export class Metrics implements TransactionObserver, DecisionObserver {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'authz_http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly decisions = new Counter({
    name: 'authz_decisions_total',
    help: 'Permission decisions answered, by result (allow or deny); a bulk request counts each check',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly cacheHits = new Counter({
    name: 'authz_decision_cache_hits_total',
    help: 'Decisions answered from the decision cache (computed at the current revision)',
    registers: [this.registry],
  });
  readonly cacheMisses = new Counter({
    name: 'authz_decision_cache_misses_total',
    help: 'Cacheable decisions that had to ask the graph',
    registers: [this.registry],
  });
  readonly listPagesTotal = new Counter({
    name: 'authz_list_pages_total',
    help: 'List-objects pages outside fully_consistent, by source: kept (read from the list kept at the revision) or walk',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });
  readonly depthLimited = new Counter({
    name: 'authz_depth_limited_total',
    help: 'Decision answers that reached MAX_DERIVATION_DEPTH without an answer (X-Authz-Depth-Limited)',
    registers: [this.registry],
  });
  readonly dbDuration = new Histogram({
    name: 'authz_neo4j_transaction_duration_seconds',
    help: 'Neo4j transaction duration (retries included) by mode: read, latest (leader read) or write',
    labelNames: ['mode'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly exportHeld = new Histogram({
    name: 'authz_export_writers_held_seconds',
    help: "How long each export held its environment's writers, by how it read it: extension (two short holds) or held (the whole read)",
    labelNames: ['read'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly dbErrors = new Counter({
    name: 'authz_neo4j_errors_total',
    help: 'Neo4j transactions that failed, by mode and kind of error',
    labelNames: ['mode', 'error'] as const,
    registers: [this.registry],
  });
  readonly dbRetries = new Counter({
    name: 'authz_neo4j_read_retries_total',
    help: 'Reads sent again after a retriable Neo4j error (a connection lost, a transient error such as a walk raced by deletions), by mode',
    labelNames: ['mode'] as const,
    registers: [this.registry],
  });
  readonly walkInfo = new Gauge({
    name: 'authz_walk_info',
    help: 'The walk answering decisions (1 on the pair in use): walk extension or cypher, and why (docs/walk-extension.md)',
    labelNames: ['walk', 'reason'] as const,
    registers: [this.registry],
  });
  readonly decisionLogDropped = new Counter({
    name: 'authz_decision_log_dropped_total',
    help: 'Sampled decisions not logged: the queue was full, or their batch could not be written',
    registers: [this.registry],
  });
  readonly admissionRefused = new Counter({
    name: 'authz_admission_refused_total',
    help: 'Requests refused with 429 by the fair share between environments, by queue (heavy questions or checks), environment id and reason',
    labelNames: ['queue', 'env', 'reason'] as const,
    registers: [this.registry],
  });
  readonly revisionLag = new Gauge({
    name: 'authz_revision_lag',
    help: "Largest gap, over environments, between the graph's revision and the one this replica knows (read in the background, METRICS_REFRESH_MS)",
    registers: [this.registry],
  });
  readonly sessions = new Gauge({
    name: 'authz_sessions_active',
    help: 'Elements sessions not yet expired, all environments (read in the background, METRICS_REFRESH_MS)',
    registers: [this.registry],
  });
  readonly approvals = new Gauge({
    name: 'authz_approvals',
    help: 'Operation approvals by status, all environments (read in the background, METRICS_REFRESH_MS)',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly gaugesReadAt = new Gauge({
    name: 'authz_metrics_refreshed_timestamp_seconds',
    help: 'When the gauges read from Neo4j (sessions, approvals, revision lag) were last read; older than 15 s, they show NaN',
    registers: [this.registry],
  });

  constructor(opts: { processMetrics?: boolean } = {}) {
    // Node process metrics (CPU, memory, event loop lag), prefixed so they sort with ours.
    if (opts.processMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'authz_' });
  }

  /** The walk in use (src/db/walkSelection.ts): 1 on its (walk, reason), the previous pair removed. */
  walkChosen(choice: { walk: string; reason: string }): void {
    this.walkInfo.reset();
    this.walkInfo.set({ walk: choice.walk, reason: choice.reason }, 1);
  }

  transaction(mode: string, seconds: number, error?: DbErrorKind): void {
    this.dbDuration.observe({ mode }, seconds);
    if (error) this.dbErrors.inc({ mode, error });
  }

  retried(mode: string): void {
    this.dbRetries.inc({ mode });
  }

  decided(_env: string, _checks: AskedCheck[], answers: boolean[]): void {
    let allowed = 0;
    for (const a of answers) if (a) allowed++;
    if (allowed) this.decisions.inc({ result: 'allow' }, allowed);
    if (answers.length - allowed) this.decisions.inc({ result: 'deny' }, answers.length - allowed);
  }

  cacheLookups(hits: number, misses: number): void {
    if (hits) this.cacheHits.inc(hits);
    if (misses) this.cacheMisses.inc(misses);
  }

  listPages(fromKept: boolean): void {
    this.listPagesTotal.inc({ source: fromKept ? 'kept' : 'walk' });
  }
}

import Ajv from 'ajv';
import { BlockedNetworks } from './util/networks';

/**
 * Every setting comes from an environment variable, is validated at boot, and has a
 * documented default (docs/configuration.md). A bad value stops the boot with a clear message.
 */
export interface Config {
  host: string;
  port: number;
  logLevel: string;
  /** Bolt URI of an existing Neo4j; when absent the service resolves one (testcontainers, then the local launcher). */
  neo4jUri?: string;
  neo4jUser: string;
  neo4jPassword: string;
  neo4jDatabase?: string;
  neo4jLocalPort: number;
  /** Upper bound for driver waits, so an unreachable database answers 503 quickly instead of hanging. */
  dbTimeoutMs: number;
  /** The deadline of a write's transactions (WRITE_TIMEOUT_MS; default max(10 s, dbTimeoutMs)). */
  writeTimeoutMs: number;
  /** The deadline of admin operations (policy apply and plan, import batches, prunes, deletes of environments and projects). */
  adminTimeoutMs: number;
  /** The longest an export holds its environment's writers while it reads it (below writeTimeoutMs). */
  exportHoldMs: number;
  adminApiKey?: string;
  dataDir: string;
  bootstrapProject: string;
  bootstrapEnv: string;
  /** ORG_ID; unset, the service uses the UUID kept in the graph (the app's config always has it). */
  orgId?: string;
  maxDerivationDepth: number;
  /**
   * WALK: `auto` answers decisions with the walk extension when Neo4j has it at the service's rule
   * version, else with the Cypher walk; `cypher` always with the Cypher walk (docs/walk-extension.md).
   */
  walk: 'auto' | 'cypher';
  /** The tenant a permission question is asked in when it names neither an instance nor a tenant. */
  defaultTenant: string;
  sessionTtlSeconds: number;
  cookieSecure: boolean;
  /** Behind a reverse proxy: X-Forwarded-Proto/-Host/-For give ctx.protocol, ctx.origin and ctx.ip. */
  trustProxy: boolean;
  /**
   * PUBLIC_BASE_URL: the origin clients reach the service at (`https://authz.example.com`), for the
   * absolute URLs of the AuthZEN metadata (docs/authzen.md); unset, the request's own origin.
   */
  publicBaseUrl?: string;
  decisionCacheSize: number;
  /** List-objects lists kept at a revision for their next pages (0: none). */
  listCacheSize: number;
  revisionPollMs: number;
  /** Writes are acknowledged this long after commit; replicas answer from revisions read within it (src/areas/decisions/revisions.ts). */
  coherenceWindowMs: number;
  /** `others`: a replica that is alone acknowledges at once (src/db/replicas.ts); `always`: every such write waits. */
  commitWait: 'others' | 'always';
  webhookPollMs: number;
  webhookRetryBaseMs: number;
  /**
   * Where a webhook may not go (checked on the resolved address): WEBHOOK_BLOCKED_NETWORKS, and
   * every address that is not public unicast unless in WEBHOOK_ALLOWED_NETWORKS (src/util/networks.ts).
   */
  webhookBlockedNetworks: BlockedNetworks;
  decisionQueriesInFlight: number;
  /** Of those, at most this many for one environment (at most decisionQueriesInFlight). */
  decisionQueriesPerEnv: number;
  /** How long a running batch of an environment's checks holds its next questions for its own next batch (0: not at all). */
  decisionBatchHoldMs: number;
  /** Heavy questions (explain, list-objects, user-permissions, authorized users, bulk writes, the admin graph) running at once, all environments. */
  heavyQueriesInFlight: number;
  /** Of those, at most this many for one environment (at most heavyQueriesInFlight). */
  heavyQueriesPerEnv: number;
  /** How long a question waits for its environment's turn before 429 TOO_MANY_REQUESTS. */
  admissionWaitMs: number;
  /** Questions of one environment that may wait at once; more answer 429 at once. */
  admissionQueuePerEnv: number;
  /** Operation approvals and access requests one end user may create per elements config per hour. */
  elementsRequestsPerHour: number;
  /** Networks a webhook may reach although refused by default (internal receivers); the blocked list wins. */
  webhookAllowedNetworks: string;
  /** When set, GET /metrics asks for it as a bearer token; unset, /metrics is open. */
  metricsToken?: string;
  /** Share of decisions written to the decision log, 0..1 (0: off). */
  decisionLogSample: number;
  /** How often the queued decision-log entries are written (one transaction each time). */
  decisionLogFlushMs: number;
  /** Change events, audit events and decision logs older than this many days are swept. */
  auditRetentionDays: number;
  /** On SIGTERM/SIGINT, how long in-flight requests may run before their connections are cut; above dbTimeoutMs. */
  shutdownDrainMs: number;
  /** Largest JSON body of a route (docs/behaviour.md section 15); more answers 413 as soon as it is passed. */
  bodyLimitBytes: number;
  /** Largest JSON body of a bulk route (a path with a `bulk` segment: bulk checks and bulk writes). */
  bulkBodyLimitBytes: number;
  /** Deepest nesting of arrays and objects a JSON body may have; deeper answers 422. */
  jsonMaxDepth: number;
  /** Largest body of an import (POST /v2/import/{p}/{e}, streamed, not bound by the body limits above); more answers 413. */
  importMaxBytes: number;
  /** Rows an import writes in one transaction (IMPORT_BATCH_ROWS); the next batch is sent while one is written. */
  importBatchRows: number;
  /** How long a secret (key or session token) that failed is refused from memory, without a lookup. */
  authFailureTtlMs: number;
  /** Lookups of secrets this process has not seen succeed, running at once (all of them together). */
  authLookupsInFlight: number;
  /** How long such a lookup may wait for a slot before the request answers 429. */
  authLookupWaitMs: number;
  /** How often the Neo4j-backed gauges of GET /metrics are read, in the background. */
  metricsRefreshMs: number;
}

interface Setting {
  env: string;
  key: keyof Config;
  type: 'string' | 'integer' | 'number' | 'boolean';
  default?: string | number | boolean;
  min?: number;
  max?: number;
  pattern?: string;
  enum?: string[];
}

export const SETTINGS: Setting[] = [
  { env: 'HOST', key: 'host', type: 'string', default: '127.0.0.1' },
  { env: 'PORT', key: 'port', type: 'integer', default: 8080, min: 0, max: 65535 },
  {
    env: 'LOG_LEVEL',
    key: 'logLevel',
    type: 'string',
    default: 'info',
    enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
  },
  { env: 'NEO4J_URI', key: 'neo4jUri', type: 'string', pattern: '^(bolt|neo4j)(\\+s|\\+ssc)?://' },
  { env: 'NEO4J_USER', key: 'neo4jUser', type: 'string', default: 'neo4j' },
  { env: 'NEO4J_PASSWORD', key: 'neo4jPassword', type: 'string', default: 'neo4j' },
  { env: 'NEO4J_DATABASE', key: 'neo4jDatabase', type: 'string' },
  { env: 'NEO4J_LOCAL_PORT', key: 'neo4jLocalPort', type: 'integer', default: 7687, min: 1, max: 65535 },
  { env: 'DB_TIMEOUT_MS', key: 'dbTimeoutMs', type: 'integer', default: 4000, min: 100, max: 60000 },
  { env: 'WRITE_TIMEOUT_MS', key: 'writeTimeoutMs', type: 'integer', min: 100, max: 600000 },
  { env: 'ADMIN_TIMEOUT_MS', key: 'adminTimeoutMs', type: 'integer', default: 60000, min: 100, max: 600000 },
  { env: 'EXPORT_HOLD_MS', key: 'exportHoldMs', type: 'integer', default: 2000, min: 10, max: 60000 },
  { env: 'ADMIN_API_KEY', key: 'adminApiKey', type: 'string', pattern: '^\\S{16,}$' },
  { env: 'DATA_DIR', key: 'dataDir', type: 'string', default: '.neo4j' },
  { env: 'BOOTSTRAP_PROJECT', key: 'bootstrapProject', type: 'string', default: 'default', pattern: '^[A-Za-z0-9_\\-]{1,128}$' },
  { env: 'BOOTSTRAP_ENV', key: 'bootstrapEnv', type: 'string', default: 'dev', pattern: '^[A-Za-z0-9_\\-]{1,128}$' },
  // Unset: a UUID generated at the first start and kept in the graph (src/db/organization.ts).
  { env: 'ORG_ID', key: 'orgId', type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' },
  { env: 'DEFAULT_TENANT', key: 'defaultTenant', type: 'string', default: 'default', pattern: '^[^\\u0000-\\u001f]{1,256}$' },
  { env: 'MAX_DERIVATION_DEPTH', key: 'maxDerivationDepth', type: 'integer', default: 25, min: 1, max: 100 },
  { env: 'WALK', key: 'walk', type: 'string', default: 'auto', enum: ['auto', 'cypher'] },
  { env: 'SESSION_TTL_SECONDS', key: 'sessionTtlSeconds', type: 'integer', default: 86400, min: 60, max: 31536000 },
  { env: 'COOKIE_SECURE', key: 'cookieSecure', type: 'boolean', default: false },
  { env: 'TRUST_PROXY', key: 'trustProxy', type: 'boolean', default: false },
  // An origin: scheme and host (and port), no path, query or fragment; a trailing slash is dropped.
  { env: 'PUBLIC_BASE_URL', key: 'publicBaseUrl', type: 'string', pattern: '^https?://[A-Za-z0-9.\\-\\[\\]:]+/?$' },
  { env: 'DECISION_CACHE_SIZE', key: 'decisionCacheSize', type: 'integer', default: 100000, min: 0, max: 10000000 },
  { env: 'LIST_CACHE_SIZE', key: 'listCacheSize', type: 'integer', default: 100, min: 0, max: 100000 },
  { env: 'DECISION_QUERIES_IN_FLIGHT', key: 'decisionQueriesInFlight', type: 'integer', default: 4, min: 1, max: 64 },
  { env: 'DECISION_QUERIES_PER_ENV', key: 'decisionQueriesPerEnv', type: 'integer', default: 3, min: 1, max: 64 },
  { env: 'DECISION_BATCH_HOLD_MS', key: 'decisionBatchHoldMs', type: 'integer', default: 10, min: 0, max: 1000 },
  { env: 'HEAVY_QUERIES_IN_FLIGHT', key: 'heavyQueriesInFlight', type: 'integer', default: 4, min: 1, max: 256 },
  { env: 'HEAVY_QUERIES_PER_ENV', key: 'heavyQueriesPerEnv', type: 'integer', default: 2, min: 1, max: 256 },
  { env: 'ADMISSION_WAIT_MS', key: 'admissionWaitMs', type: 'integer', default: 2000, min: 10, max: 60000 },
  { env: 'ADMISSION_QUEUE_PER_ENV', key: 'admissionQueuePerEnv', type: 'integer', default: 64, min: 0, max: 100000 },
  { env: 'ELEMENTS_REQUESTS_PER_HOUR', key: 'elementsRequestsPerHour', type: 'integer', default: 100, min: 1, max: 1000000 },
  { env: 'REVISION_POLL_MS', key: 'revisionPollMs', type: 'integer', default: 500, min: 50, max: 600000 },
  { env: 'COHERENCE_WINDOW_MS', key: 'coherenceWindowMs', type: 'integer', default: 20, min: 0, max: 1000 },
  { env: 'COMMIT_WAIT', key: 'commitWait', type: 'string', default: 'others', enum: ['others', 'always'] },
  { env: 'DECISION_LOG_SAMPLE', key: 'decisionLogSample', type: 'number', default: 0, min: 0, max: 1 },
  { env: 'DECISION_LOG_FLUSH_MS', key: 'decisionLogFlushMs', type: 'integer', default: 5000, min: 100, max: 60000 },
  { env: 'AUDIT_RETENTION_DAYS', key: 'auditRetentionDays', type: 'integer', default: 30, min: 1, max: 3650 },
  { env: 'METRICS_TOKEN', key: 'metricsToken', type: 'string', pattern: '^\\S{16,}$' },
  { env: 'SHUTDOWN_DRAIN_MS', key: 'shutdownDrainMs', type: 'integer', min: 1000, max: 600000 },
  { env: 'BODY_LIMIT_BYTES', key: 'bodyLimitBytes', type: 'integer', default: 1048576, min: 1024, max: 67108864 },
  { env: 'BULK_BODY_LIMIT_BYTES', key: 'bulkBodyLimitBytes', type: 'integer', default: 8388608, min: 1024, max: 67108864 },
  { env: 'IMPORT_MAX_BYTES', key: 'importMaxBytes', type: 'integer', default: 1073741824, min: 1024, max: 1099511627776 },
  { env: 'IMPORT_BATCH_ROWS', key: 'importBatchRows', type: 'integer', default: 5000, min: 1, max: 50000 },
  { env: 'JSON_MAX_DEPTH', key: 'jsonMaxDepth', type: 'integer', default: 32, min: 4, max: 256 },
  { env: 'AUTH_FAILURE_TTL_MS', key: 'authFailureTtlMs', type: 'integer', default: 30000, min: 0, max: 3600000 },
  { env: 'AUTH_LOOKUPS_IN_FLIGHT', key: 'authLookupsInFlight', type: 'integer', default: 8, min: 1, max: 256 },
  { env: 'AUTH_LOOKUP_WAIT_MS', key: 'authLookupWaitMs', type: 'integer', default: 1000, min: 0, max: 30000 },
  // At most 15 s (docs/behaviour.md section 15: the gauges are never older than that; see src/areas/metrics/gauges.ts).
  { env: 'METRICS_REFRESH_MS', key: 'metricsRefreshMs', type: 'integer', default: 5000, min: 100, max: 15000 },
  { env: 'WEBHOOK_POLL_MS', key: 'webhookPollMs', type: 'integer', default: 1000, min: 50, max: 600000 },
  { env: 'WEBHOOK_RETRY_BASE_MS', key: 'webhookRetryBaseMs', type: 'integer', default: 5000, min: 10, max: 3600000 },
  // Never a webhook receiver: "this network", link-local (the metadata endpoint of AWS, GCP and
  // Azure at 169.254.169.254), AWS's IPv6 one (fd00:ec2::254), Alibaba's (100.100.100.200),
  // multicast and reserved, the unspecified and IPv6 link-local and multicast.
  // Receivers inside your network (loopback, RFC 1918, ...: refused by default, src/util/networks.ts).
  { env: 'WEBHOOK_ALLOWED_NETWORKS', key: 'webhookAllowedNetworks', type: 'string', default: '' },
  {
    env: 'WEBHOOK_BLOCKED_NETWORKS',
    key: 'webhookBlockedNetworks',
    type: 'string',
    default: '0.0.0.0/8,169.254.0.0/16,100.100.100.200/32,224.0.0.0/3,::/128,fe80::/10,ff00::/8,fd00:ec2::254/128',
  },
];

export class ConfigError extends Error {}

/** Settings whose values never appear in a message. */
const SECRET_SETTINGS = new Set(['ADMIN_API_KEY', 'NEO4J_PASSWORD', 'METRICS_TOKEN']);

const ajv = new Ajv({ allErrors: true, coerceTypes: true, useDefaults: true });

const validate = ajv.compile({
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(
    SETTINGS.map((s) => [
      s.env,
      {
        type: s.type,
        ...(s.default !== undefined ? { default: s.default } : {}),
        ...(s.min !== undefined ? { minimum: s.min } : {}),
        ...(s.max !== undefined ? { maximum: s.max } : {}),
        ...(s.pattern ? { pattern: s.pattern } : {}),
        ...(s.enum ? { enum: s.enum } : {}),
      },
    ]),
  ),
});

/** Reads and validates the configuration; throws ConfigError naming every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const raw: Record<string, unknown> = {};
  for (const s of SETTINGS) {
    const v = env[s.env];
    if (v !== undefined && v !== '') raw[s.env] = v;
  }
  if (!validate(raw)) {
    const problems = (validate.errors ?? []).map((e) => {
      const name = e.instancePath.replace(/^\//, '');
      const shown = SECRET_SETTINGS.has(name) ? '(value hidden)' : `(got ${JSON.stringify(env[name])})`;
      return `${name}: ${e.message} ${shown}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const cfg: Record<string, unknown> = {};
  for (const s of SETTINGS) if (raw[s.env] !== undefined) cfg[s.key] = raw[s.env];
  for (const [name, spec] of [
    ['WEBHOOK_BLOCKED_NETWORKS', cfg.webhookBlockedNetworks],
    ['WEBHOOK_ALLOWED_NETWORKS', cfg.webhookAllowedNetworks],
  ] as const) {
    try {
      BlockedNetworks.parse(spec as string);
    } catch (err) {
      throw new ConfigError(`Invalid configuration:\n  ${name}: ${(err as Error).message}`);
    }
  }
  if (typeof cfg.publicBaseUrl === 'string') cfg.publicBaseUrl = cfg.publicBaseUrl.replace(/\/$/, '');
  cfg.webhookBlockedNetworks = BlockedNetworks.forWebhooks(cfg.webhookBlockedNetworks as string, cfg.webhookAllowedNetworks as string);
  // A bound per environment above the global one would never be reached.
  cfg.decisionQueriesPerEnv = Math.min(cfg.decisionQueriesPerEnv as number, cfg.decisionQueriesInFlight as number);
  cfg.heavyQueriesPerEnv = Math.min(cfg.heavyQueriesPerEnv as number, cfg.heavyQueriesInFlight as number);
  // A write's transaction waits for its environment's lock behind the writes before it: its own
  // deadline, 10 s or DB_TIMEOUT_MS when that is longer (docs/configuration.md).
  // A SHUTDOWN_DRAIN_MS set shorter (a configuration of a version without this deadline) keeps its
  // meaning: the default then stays below it.
  const drainSet = cfg.shutdownDrainMs as number | undefined;
  cfg.writeTimeoutMs ??= Math.max(cfg.dbTimeoutMs as number, Math.min(10_000, drainSet === undefined ? 10_000 : drainSet - 1));
  if ((cfg.writeTimeoutMs as number) < (cfg.dbTimeoutMs as number)) {
    throw new ConfigError(`Invalid configuration:\n  WRITE_TIMEOUT_MS: must be at least DB_TIMEOUT_MS (${String(cfg.dbTimeoutMs)})`);
  }
  // A request's Neo4j calls are each bounded by DB_TIMEOUT_MS (a write's by WRITE_TIMEOUT_MS): a shorter drain would cut
  // requests that still answer. Default: 25 s (under the 30 s grace of Kubernetes and of docker-compose.yml), more for longer deadlines.
  const longestCall = Math.max(cfg.dbTimeoutMs as number, cfg.writeTimeoutMs as number);
  cfg.shutdownDrainMs ??= Math.max(25_000, 2 * longestCall + 5_000);
  if ((cfg.shutdownDrainMs as number) <= longestCall) {
    throw new ConfigError(
      `Invalid configuration:\n  SHUTDOWN_DRAIN_MS: must be greater than DB_TIMEOUT_MS and WRITE_TIMEOUT_MS (${String(longestCall)})`,
    );
  }
  if ((cfg.exportHoldMs as number) >= (cfg.writeTimeoutMs as number)) {
    throw new ConfigError(
      `Invalid configuration:\n  EXPORT_HOLD_MS: must be less than WRITE_TIMEOUT_MS (${String(cfg.writeTimeoutMs)}): a write held that long would time out`,
    );
  }
  if ((cfg.adminTimeoutMs as number) < (cfg.dbTimeoutMs as number)) {
    throw new ConfigError(`Invalid configuration:\n  ADMIN_TIMEOUT_MS: must be at least DB_TIMEOUT_MS (${String(cfg.dbTimeoutMs)})`);
  }
  if ((cfg.bulkBodyLimitBytes as number) < (cfg.bodyLimitBytes as number)) {
    throw new ConfigError(
      `Invalid configuration:\n  BULK_BODY_LIMIT_BYTES: must be at least BODY_LIMIT_BYTES (${String(cfg.bodyLimitBytes)})`,
    );
  }
  return { ...(cfg as unknown as Config), ...overrides };
}

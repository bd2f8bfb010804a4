import { ConfigError, loadConfig } from '../../src/config';
import { splitStatements } from '../../src/db/migrate';
import { paging } from '../../src/http/paging';

describe('configuration', () => {
  it('applies documented defaults', () => {
    const c = loadConfig({});
    expect(c).toEqual(
      expect.objectContaining({
        port: 8080,
        maxDerivationDepth: 25,
        bootstrapProject: 'default',
        bootstrapEnv: 'dev',
        sessionTtlSeconds: 86400,
        cookieSecure: false,
      }),
    );
  });
  it('coerces and validates values, naming every bad variable', () => {
    expect(loadConfig({ PORT: '9000', COOKIE_SECURE: 'true' })).toEqual(expect.objectContaining({ port: 9000, cookieSecure: true }));
    expect(() => loadConfig({ PORT: 'eighty', MAX_DERIVATION_DEPTH: '0' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', MAX_DERIVATION_DEPTH: '0' });
    } catch (e) {
      expect((e as Error).message).toMatch(/PORT/);
      expect((e as Error).message).toMatch(/MAX_DERIVATION_DEPTH/);
    }
    expect(() => loadConfig({ NEO4J_URI: 'http://x' })).toThrow(/NEO4J_URI/);
  });
  it('takes PUBLIC_BASE_URL as an origin (its trailing slash dropped), and refuses a path, query or other scheme', () => {
    expect(loadConfig({}).publicBaseUrl).toBeUndefined();
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://authz.example.com/' }).publicBaseUrl).toBe('https://authz.example.com');
    expect(loadConfig({ PUBLIC_BASE_URL: 'http://[::1]:8080' }).publicBaseUrl).toBe('http://[::1]:8080');
    for (const bad of ['https://authz.example.com/pdp', 'https://authz.example.com?x=1', 'ftp://authz.example.com', 'authz.example.com'])
      expect(() => loadConfig({ PUBLIC_BASE_URL: bad })).toThrow(/PUBLIC_BASE_URL/);
  });
  it('drains on SIGTERM for longer than a Neo4j call may take, and refuses a shorter drain', () => {
    expect(loadConfig({}).shutdownDrainMs).toBe(25000);
    expect(loadConfig({ DB_TIMEOUT_MS: '20000' }).shutdownDrainMs).toBe(45000);
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '8000' }).shutdownDrainMs).toBe(8000);
    expect(() => loadConfig({ DB_TIMEOUT_MS: '10000', SHUTDOWN_DRAIN_MS: '10000' })).toThrow(
      /SHUTDOWN_DRAIN_MS: must be greater than DB_TIMEOUT_MS/,
    );
  });
  it('gives writes a deadline of their own (10 s, or DB_TIMEOUT_MS when longer), never shorter than a decision call', () => {
    expect(loadConfig({})).toEqual(expect.objectContaining({ dbTimeoutMs: 4000, writeTimeoutMs: 10000 }));
    expect(loadConfig({ DB_TIMEOUT_MS: '20000' }).writeTimeoutMs).toBe(20000);
    expect(loadConfig({ WRITE_TIMEOUT_MS: '6000' }).writeTimeoutMs).toBe(6000);
    expect(() => loadConfig({ DB_TIMEOUT_MS: '8000', WRITE_TIMEOUT_MS: '5000' })).toThrow(
      /WRITE_TIMEOUT_MS: must be at least DB_TIMEOUT_MS/,
    );
    // The drain outlasts the longer deadline.
    expect(loadConfig({ WRITE_TIMEOUT_MS: '20000' }).shutdownDrainMs).toBe(45000);
    // A drain set shorter than 10 s (before this deadline existed) still starts: writes then stop below it.
    expect(loadConfig({ SHUTDOWN_DRAIN_MS: '8000' })).toEqual(expect.objectContaining({ shutdownDrainMs: 8000, writeTimeoutMs: 7999 }));
    expect(() => loadConfig({ WRITE_TIMEOUT_MS: '20000', SHUTDOWN_DRAIN_MS: '15000' })).toThrow(/SHUTDOWN_DRAIN_MS: must be greater/);
    // An export holds writes within their deadline, not a decision's.
    expect(loadConfig({ EXPORT_HOLD_MS: '6000' }).exportHoldMs).toBe(6000);
    expect(() => loadConfig({ EXPORT_HOLD_MS: '10000' })).toThrow(/EXPORT_HOLD_MS: must be less than WRITE_TIMEOUT_MS/);
  });
  it('gives admin operations a deadline of their own, never shorter than a decision call', () => {
    expect(loadConfig({})).toEqual(expect.objectContaining({ dbTimeoutMs: 4000, adminTimeoutMs: 60000 }));
    expect(loadConfig({ ADMIN_TIMEOUT_MS: '120000' }).adminTimeoutMs).toBe(120000);
    expect(() => loadConfig({ DB_TIMEOUT_MS: '10000', ADMIN_TIMEOUT_MS: '5000' })).toThrow(
      /ADMIN_TIMEOUT_MS: must be at least DB_TIMEOUT_MS/,
    );
  });
  it('keeps webhooks on public addresses by default; WEBHOOK_ALLOWED_NETWORKS lets internal ones through, WEBHOOK_BLOCKED_NETWORKS wins', () => {
    expect(loadConfig({}).webhookBlockedNetworks.blocks('169.254.169.254')).toBe(true);
    expect(loadConfig({}).webhookBlockedNetworks.blocks('127.0.0.1')).toBe(true);
    expect(loadConfig({}).webhookBlockedNetworks.blocks('93.184.216.34')).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }).webhookBlockedNetworks.blocks('127.0.0.1')).toBe(false);
    expect(
      loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_BLOCKED_NETWORKS: '127.0.0.0/8' }).webhookBlockedNetworks.blocks(
        '127.0.0.1',
      ),
    ).toBe(true);
    // The default blocked list (metadata endpoints) wins over a broad allowed one.
    expect(loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '169.254.0.0/16' }).webhookBlockedNetworks.blocks('169.254.169.254')).toBe(true);
    expect(() => loadConfig({ WEBHOOK_BLOCKED_NETWORKS: '127.0.0.0/8,intranet' })).toThrow(
      /WEBHOOK_BLOCKED_NETWORKS: "intranet" is not a CIDR block/,
    );
    expect(() => loadConfig({ WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/8,intranet' })).toThrow(
      /WEBHOOK_ALLOWED_NETWORKS: "intranet" is not a CIDR block/,
    );
  });
  it('bounds admission per environment at most at the global bound', () => {
    const c = loadConfig({});
    expect([
      c.decisionQueriesInFlight,
      c.decisionQueriesPerEnv,
      c.heavyQueriesInFlight,
      c.heavyQueriesPerEnv,
      c.admissionWaitMs,
      c.elementsRequestsPerHour,
    ]).toEqual([4, 3, 4, 2, 2000, 100]);
    expect(loadConfig({ HEAVY_QUERIES_IN_FLIGHT: '1', HEAVY_QUERIES_PER_ENV: '8' }).heavyQueriesPerEnv).toBe(1);
  });
  it('never repeats a secret in its message', () => {
    expect(() => loadConfig({ ADMIN_API_KEY: 'short secret' })).toThrow(/ADMIN_API_KEY.*value hidden/);
    expect(() => loadConfig({ ADMIN_API_KEY: 'short secret' })).not.toThrow(/short secret/);
  });
});

describe('migrations', () => {
  it('splits statements at semicolons ending a line and drops comment lines', () => {
    expect(splitStatements('// c\nCREATE A;\nCREATE B;\n\n')).toEqual(['CREATE A', 'CREATE B']);
  });
});

describe('paging', () => {
  it('computes skip and rejects per_page above 100', () => {
    expect(paging({ page: 3, per_page: 10 })).toEqual({ page: 3, perPage: 10, skip: 20 });
    expect(paging({})).toEqual({ page: 1, perPage: 30, skip: 0 });
    expect(() => paging({ per_page: 101 })).toThrow(/at most 100/);
  });
});

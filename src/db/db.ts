import neo4j, { Driver, ManagedTransaction, Neo4jError } from 'neo4j-driver';
import { AppError, unavailable } from '../errors';
import { CypherRegistry } from './cypherRegistry';

export type Params = Record<string, unknown>;
export type Row = Record<string, unknown>;

/** Store-level failures, mapped to public errors by the domain (see `storeErrors`). */
export class UniqueViolation extends Error {}

/** Neo4j error codes that mean "the database is not reachable right now". */
const UNAVAILABLE_CODES = new Set(['ServiceUnavailable', 'SessionExpired', 'Neo.TransientError.General.DatabaseUnavailable']);

export function mapDriverError(err: unknown): unknown {
  if (err instanceof AppError) return err;
  if (err instanceof Neo4jError) {
    if (err.code === 'Neo.ClientError.Schema.ConstraintValidationFailed') return new UniqueViolation(err.message);
    if (UNAVAILABLE_CODES.has(err.code) || err.code?.startsWith('Neo.TransientError')) return unavailable();
    if (err.code === 'N/A' && /acquisition timed out|connection/i.test(err.name ?? '')) return unavailable();
  }
  if (err instanceof Error && /Connection acquisition timed out|ECONNREFUSED|Failed to connect/i.test(err.message)) {
    return unavailable();
  }
  return err;
}

/** A statement bound to its name; created at boot so a missing file fails early. */
export interface Statement {
  name: string;
  text: string;
}

/** JavaScript numbers travel as floats; whole numbers at the top level (paging, depths) go as integers. */
function withIntegers(params: Params): Params {
  const out: Params = {};
  for (const [k, v] of Object.entries(params)) out[k] = typeof v === 'number' && Number.isInteger(v) ? neo4j.int(v) : v;
  return out;
}

export class Tx {
  /** Environments this transaction's statements named (`$env`); a write transaction bumps their revisions. */
  readonly envs = new Set<string>();

  constructor(private readonly tx: ManagedTransaction) {}
  async rows(stmt: Statement, params: Params): Promise<Row[]> {
    if (typeof params.env === 'string') this.envs.add(params.env);
    const res = await this.tx.run(stmt.text, withIntegers(params));
    return res.records.map((r) => r.toObject() as Row);
  }
  /** Rows, and how many relationships the statement created (exact under concurrent writers: MERGE's own count). */
  async rowsCreating(stmt: Statement, params: Params): Promise<{ rows: Row[]; relationshipsCreated: number }> {
    if (typeof params.env === 'string') this.envs.add(params.env);
    const res = await this.tx.run(stmt.text, withIntegers(params));
    return { rows: res.records.map((r) => r.toObject() as Row), relationshipsCreated: res.summary.counters.updates().relationshipsCreated };
  }
  async one(stmt: Statement, params: Params): Promise<Row | undefined> {
    return (await this.rows(stmt, params))[0];
  }
}

/** The only door to Neo4j: named statements, parameters only, managed transactions. */
export class Db {
  private readonly bumpRevision: Statement;
  /** Told each environment revision a committed write moved to. */
  onRevision: (envId: string, revision: number) => void = () => undefined;

  constructor(
    readonly driver: Driver,
    private readonly registry: CypherRegistry,
    private readonly database?: string,
  ) {
    this.bumpRevision = this.statement('revisions/bumpRevision');
  }

  statement(name: string): Statement {
    return { name, text: this.registry.get(name) };
  }

  /** Resolves a group of statements at once: `db.statements({create: 'tenants/createTenant'})`. */
  statements<K extends string>(names: Record<K, string>): Record<K, Statement> {
    const out = {} as Record<K, Statement>;
    for (const k of Object.keys(names) as K[]) out[k] = this.statement(names[k]);
    return out;
  }

  async read<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.session('READ', fn);
  }

  async write<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.session('WRITE', fn);
  }

  async readRows(stmt: Statement, params: Params): Promise<Row[]> {
    return this.read((tx) => tx.rows(stmt, params));
  }

  async writeRows(stmt: Statement, params: Params): Promise<Row[]> {
    return this.write((tx) => tx.rows(stmt, params));
  }

  private async session<T>(mode: 'READ' | 'WRITE', fn: (tx: Tx) => Promise<T>): Promise<T> {
    const session = this.driver.session({
      defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE,
      database: this.database,
    });
    let bumped: [string, number][] = [];
    try {
      const work = async (t: ManagedTransaction) => {
        const tx = new Tx(t);
        const out = await fn(tx);
        // A write to an environment moves its revision in the same transaction: once committed,
        // no decision cached at an older revision is used again (src/areas/decisions).
        bumped = [];
        if (mode === 'WRITE') {
          for (const envId of tx.envs) bumped.push([envId, (await tx.one(this.bumpRevision, { envId }))?.revision as number]);
        }
        return out;
      };
      const out = mode === 'READ' ? await session.executeRead(work) : await session.executeWrite(work);
      for (const [envId, rev] of bumped) this.onRevision(envId, rev);
      return out;
    } catch (err) {
      throw mapDriverError(err);
    } finally {
      await session.close().catch(() => undefined);
    }
  }
}

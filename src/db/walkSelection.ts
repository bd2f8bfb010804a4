import type { Logger } from 'pino';
import type { DbErrorKind, TransactionObserver } from '../metrics/metrics';
import type { Db, Statement } from './db';
import type { RowOf } from './db';

/**
 * The version of the permission rule this service implements. The walk extension
 * (neo4j/extension, RuleVersion.java) answers decisions only when it reports exactly this
 * version; change both together whenever the rule (docs/graph-model.md, "Decisions") or what the
 * service sends its procedures changes (6: graphauthz.allowed's checks packed into one string; 8:
 * the instance role assignments and the tuples written by graphauthz.assignInstanceRoles and
 * graphauthz.createTuples; 9: the batches of an import share the environment's lock through
 * graphauthz.holdImport; 10: an import's records and links written by graphauthz.importRecords and graphauthz.importLinks).
 */
export const RULE_VERSION = '10';

/**
 * The extension's procedures the service calls: the extension answers (decisions, and the writes it
 * carries) only when all are loaded.
 */
export const EXTENSION_PROCEDURES = [
  'graphauthz.allowed',
  'graphauthz.listObjects',
  'graphauthz.authorizedUsers',
  'graphauthz.userPermissions',
  'graphauthz.assignInstanceRoles',
  'graphauthz.createTuples',
  'graphauthz.holdImport',
  'graphauthz.importRecords',
  'graphauthz.importLinks',
] as const;

export type WalkMode = 'auto' | 'cypher';
export type WalkName = 'extension' | 'cypher';
/**
 * Why that walk answers: `version_matches` (the extension, at RULE_VERSION), `forced_by_setting`
 * (WALK=cypher), `extension_absent` (a Neo4j without it), `version_mismatch` (another rule
 * version: logged at error level), `procedures_missing` (loaded in part: the allowlist left some
 * out), `not_checked` (Neo4j did not answer the check yet).
 */
export type WalkReason =
  | 'version_matches'
  | 'forced_by_setting'
  | 'extension_absent'
  | 'version_mismatch'
  | 'procedures_missing'
  | 'not_checked';
export const WALK_REASONS: WalkReason[] = [
  'version_matches',
  'forced_by_setting',
  'extension_absent',
  'version_mismatch',
  'procedures_missing',
  'not_checked',
];

export interface WalkChoice {
  walk: WalkName;
  reason: WalkReason;
  /** The rule version of this service. */
  rule_version: string;
  /** The version the loaded extension reports; null: none loaded (or not asked). */
  extension_version: string | null;
}

/**
 * Which walk answers decisions (docs/walk-extension.md): the extension when Neo4j has it at
 * RULE_VERSION, else the Cypher walk. Asked at start (`check`), and again whenever the connection
 * to Neo4j is re-established: it observes the Db's transactions, and the first one to succeed
 * after a lost connection (unreachable, timed out) makes it ask again, as does a statement that
 * finds a procedure missing (`procedureMissing`), which also turns to the Cypher walk at once.
 */
export class WalkSelection implements TransactionObserver {
  private choice: WalkChoice;
  private q?: {
    functions: Statement<RowOf<'walk/extensionFunctions'>>;
    procedures: Statement<RowOf<'walk/extensionProcedures'>>;
    version: Statement<RowOf<'walk/ruleVersion'>>;
  };
  private db?: Db;
  private lost = false;
  private checking?: Promise<WalkChoice>;
  private readonly listeners: ((choice: WalkChoice) => void)[] = [];

  constructor(
    private readonly mode: WalkMode,
    private readonly log: Pick<Logger, 'info' | 'error'>,
  ) {
    this.choice = {
      walk: 'cypher',
      reason: mode === 'cypher' ? 'forced_by_setting' : 'not_checked',
      rule_version: RULE_VERSION,
      extension_version: null,
    };
  }

  /** The Db the checks read through (the service's, whose transactions this observes). */
  attach(db: Db): void {
    this.db = db;
    this.q = db.statements({
      functions: 'walk/extensionFunctions',
      procedures: 'walk/extensionProcedures',
      version: 'walk/ruleVersion',
    });
  }

  get current(): WalkChoice {
    return this.choice;
  }

  /** True when the extension answers decisions. */
  get extension(): boolean {
    return this.choice.walk === 'extension';
  }

  /** Called with every new choice (and at once with the current one). */
  onChange(listener: (choice: WalkChoice) => void): void {
    this.listeners.push(listener);
    listener(this.choice);
  }

  /**
   * Asks Neo4j which extension it has loaded and chooses; logs the choice (a mismatched version at
   * error level). Concurrent calls share one check. With WALK=cypher nothing is asked.
   */
  check(why: 'start' | 'reconnected' | 'procedure_missing'): Promise<WalkChoice> {
    if (this.mode === 'cypher') {
      if (why === 'start') this.announce(why);
      return Promise.resolve(this.choice);
    }
    this.checking ??= this.ask()
      .then((choice) => {
        this.set(choice, why);
        return choice;
      })
      .catch((err) => {
        // Neo4j did not answer: the next transaction that succeeds asks again.
        this.lost = true;
        this.log.error({ err: (err as Error).message, why }, 'decision walk: Neo4j did not answer the extension check');
        return this.choice;
      })
      .finally(() => {
        this.checking = undefined;
      });
    return this.checking;
  }

  /** A statement called an extension procedure Neo4j does not have: the Cypher walk answers, and the choice is made again. */
  procedureMissing(): void {
    if (this.choice.walk !== 'extension') return;
    this.set({ ...this.choice, walk: 'cypher', reason: 'not_checked' }, 'procedure_missing');
    void this.check('procedure_missing');
  }

  /** TransactionObserver: a lost connection, then the first transaction that succeeds, asks again. */
  transaction(_mode: string, _seconds: number, error?: DbErrorKind): void {
    if (this.mode === 'cypher') return;
    if (error === 'unavailable' || error === 'timeout') {
      this.lost = true;
    } else if (error === undefined && this.lost && !this.checking) {
      this.lost = false;
      void this.check('reconnected');
    }
  }

  private async ask(): Promise<WalkChoice> {
    const { db, q } = this;
    if (!db || !q) throw new Error('WalkSelection.attach was not called');
    const base = { rule_version: RULE_VERSION };
    const [functions] = await db.readRows(q.functions, {});
    if (!functions?.names.includes('graphauthz.ruleVersion')) {
      return { ...base, walk: 'cypher', reason: 'extension_absent', extension_version: null };
    }
    const [row] = await db.readRows(q.version, {});
    const version = row?.version ?? null;
    if (version !== RULE_VERSION) return { ...base, walk: 'cypher', reason: 'version_mismatch', extension_version: version };
    const [procedures] = await db.readRows(q.procedures, {});
    const loaded = procedures?.names ?? [];
    if (!EXTENSION_PROCEDURES.every((name) => loaded.includes(name))) {
      return { ...base, walk: 'cypher', reason: 'procedures_missing', extension_version: version };
    }
    return { ...base, walk: 'extension', reason: 'version_matches', extension_version: version };
  }

  private set(choice: WalkChoice, why: string): void {
    const changed =
      choice.walk !== this.choice.walk ||
      choice.reason !== this.choice.reason ||
      choice.extension_version !== this.choice.extension_version;
    this.choice = choice;
    if (changed || why === 'start') this.announce(why);
    if (changed) for (const listener of this.listeners) listener(choice);
  }

  private announce(why: string): void {
    const c = this.choice;
    const fields = { walk: c.walk, reason: c.reason, rule_version: c.rule_version, extension_version: c.extension_version, why };
    if (c.reason === 'version_mismatch') {
      this.log.error(
        fields,
        `decision walk: cypher; the walk extension in Neo4j implements rule version ${c.extension_version}, this service ${c.rule_version}: install the jar of this release (docs/walk-extension.md)`,
      );
    } else if (c.reason === 'procedures_missing') {
      this.log.error(
        fields,
        `decision walk: cypher; the walk extension is loaded without all its procedures (${EXTENSION_PROCEDURES.join(', ')}): allow graphauthz.*`,
      );
    } else {
      this.log.info(fields, `decision walk: ${c.walk} (${c.reason})`);
    }
  }
}

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** A line `// #include fragments/<name>` is replaced by the text of `cypher/fragments/<name>.cypher`. */
const INCLUDE = /^[ \t]*\/\/[ \t]*#include[ \t]+(\S+)[ \t]*$/gm;
const FRAGMENTS = 'fragments/';
/** First line of every writing statement: `// @invalidates $<param>` or `// @invalidates none`. */
const HEADER = /^\/\/[ \t]*@invalidates[ \t]+(\$[A-Za-z_][A-Za-z0-9_]*|none)[ \t]*$/;
/** A clause that changes the graph (a property named `set` or `$delete` is not one). */
const WRITE_CLAUSE = /(?<![\w$.`])(CREATE|MERGE|SET|DELETE|REMOVE)(?![\w`:])/i;
/** A call of one of the walk extension's write procedures (neo4j/extension, `Mode.WRITE`) writes too. */
const WRITE_PROCEDURE = /(?<![\w$.`])CALL\s+graphauthz\.(assignInstanceRoles|createTuples|importRecords|importLinks)(?![\w`])/i;
/**
 * A time has one name per meaning: `$nowMs` (epoch ms, against stored epoch-ms `expires_at` of
 * grants) or `$nowIso` (ISO 8601, for stored timestamps); a bare `$now` would be either.
 */
/**
 * Second line of every writing statement: what records of the API it changes, for the change
 * feed and the audit log (src/areas/changes/capture.ts): `// @changes none`, or
 * `// @changes <kind>:<op>` with op create, update or delete, then optionally `each $<list
 * parameter>` (one event per element of that parameter, when the answer does not list them) and
 * `audit` (an audit-log event only, not in the changes feed: keys, sessions, login codes).
 */
const CHANGES =
  /^\/\/[ \t]*@changes[ \t]+(?:(none)|([a-z][a-z_]*):(create|update|delete)(?:[ \t]+each[ \t]+\$([A-Za-z_][A-Za-z0-9_]*))?([ \t]+audit)?)[ \t]*$/;

/** What a write statement declares it changes (its `// @changes` header). */
export interface DeclaredChange {
  /** The record kind of its events (`user`, `role_assignment` ...). */
  kind: string;
  op: 'create' | 'update' | 'delete';
  /** A list parameter whose elements are the changed records, when the answer does not list them. */
  each: string | null;
  /** In the changes feed; false: a security event for the audit log only. */
  feed: boolean;
}

const AMBIGUOUS_TIME = /\$now(?![A-Za-z0-9_])/;

/** What the registry knows of a statement. */
export interface StatementInfo {
  text: string;
  /** It changes the graph (CREATE, MERGE, SET, DELETE, REMOVE outside comments and strings). */
  writes: boolean;
  /**
   * The parameter naming the environment whose decisions a write changes (`env` for a header
   * `// @invalidates $env`), or null (`// @invalidates none`, or a read).
   */
  invalidates: string | null;
  /** What it changes (its `// @changes` header); null for `@changes none` and for a read. */
  changes: DeclaredChange | null;
}

/**
 * Every Cypher statement lives in a file under cypher/, named by its path without the
 * extension (`tenants/createTenant`). Files are read once at boot; asking for a name that
 * has no file throws, so a missing statement fails the boot, not a request.
 *
 * Files under `cypher/fragments/` are not statements: they are pieces that statements compose
 * with `// #include fragments/<name>` lines, so a rule shared by several statements is written
 * once. Includes are expanded at boot (nested includes too); an unknown or circular include
 * fails the boot.
 *
 * A statement that writes must say, on its first line, what decision state it invalidates:
 * `// @invalidates $env` (the parameter naming the environment whose decisions it can change;
 * any parameter of the statement) or `// @invalidates none` (sessions, login codes, logs, locks).
 * A write transaction bumps the revision of exactly the environments so declared (src/db/db.ts).
 * Its second line says what records of the API it changes, for the change feed and the audit
 * log (src/areas/changes/capture.ts): `// @changes user:update` (kind and operation; `each
 * $items` when its events are the elements of a list parameter; `audit` for the audit log only)
 * or `// @changes none`. Nothing is told from a file's name.
 * A writing file without valid headers, or a header on a statement that does not write, fails
 * the boot naming the file.
 */
export class CypherRegistry {
  private readonly statements = new Map<string, StatementInfo>();
  private readonly fragments = new Map<string, string>();

  constructor(readonly root: string) {
    const raw = new Map<string, string>();
    for (const file of walk(root)) {
      if (!file.endsWith('.cypher') || file.includes(`${sep}migrations${sep}`)) continue;
      const name = relative(root, file).slice(0, -'.cypher'.length).split(sep).join('/');
      raw.set(name, readFileSync(file, 'utf8'));
    }
    for (const [name, text] of raw) if (name.startsWith(FRAGMENTS)) this.fragments.set(name, text);
    for (const [name, text] of raw) {
      if (!name.startsWith(FRAGMENTS)) {
        const info = this.describe(name, text, this.expand(name, text, [name]));
        this.statements.set(name, { ...info, text: withoutComments(info.text) });
      }
    }
  }

  get(name: string): string {
    return this.info(name).text;
  }

  info(name: string): StatementInfo {
    const info = this.statements.get(name);
    if (info === undefined) throw new Error(`Cypher statement "${name}" has no file ${name}.cypher under ${this.root}`);
    return info;
  }

  names(): string[] {
    return [...this.statements.keys()].sort();
  }

  /** Reads the invalidation header and checks it against what the (expanded) statement does. */
  private describe(name: string, own: string, text: string): StatementInfo {
    const file = join(this.root, `${name}.cypher`);
    const first = own.split('\n', 1)[0].trim();
    const header = HEADER.exec(first);
    const writes = WRITE_CLAUSE.test(codeOnly(text)) || WRITE_PROCEDURE.test(codeOnly(text));
    if (AMBIGUOUS_TIME.test(codeOnly(text))) {
      throw new Error(`Cypher file ${file} uses $now: name the instant by its meaning, $nowMs (epoch ms) or $nowIso (ISO 8601)`);
    }
    if (!writes) {
      if (first.includes('@invalidates'))
        throw new Error(`Cypher file ${file} has an @invalidates header but does not write; remove the header`);
      if (own.includes('@changes')) throw new Error(`Cypher file ${file} has a @changes header but does not write; remove the header`);
      return { text, writes, invalidates: null, changes: null };
    }
    if (!header) {
      throw new Error(
        `Cypher file ${file} writes but does not start with its invalidation header: make its first line ` +
          '"// @invalidates $<parameter naming the environment whose decisions it changes>" or "// @invalidates none"',
      );
    }
    const param = header[1] === 'none' ? null : header[1].slice(1);
    if (param !== null && !new RegExp(`\\$${param}(?![A-Za-z0-9_])`).test(codeOnly(text))) {
      throw new Error(`Cypher file ${file} declares "@invalidates $${param}" but has no parameter $${param}`);
    }
    return { text, writes, invalidates: param, changes: this.declaredChange(file, own, text) };
  }

  /** Reads the `// @changes` header (the second line of a writing statement). */
  private declaredChange(file: string, own: string, text: string): DeclaredChange | null {
    const second = own.split('\n', 2)[1]?.trim() ?? '';
    const m = CHANGES.exec(second);
    if (!m) {
      throw new Error(
        `Cypher file ${file} writes but its second line does not declare what it changes: make it ` +
          '"// @changes <kind>:<create|update|delete>" (then optionally "each $<list parameter>" and "audit") or "// @changes none"',
      );
    }
    if (m[1] === 'none') return null;
    const each = m[4] ?? null;
    if (each !== null && !new RegExp(`\\$${each}(?![A-Za-z0-9_])`).test(codeOnly(text))) {
      throw new Error(`Cypher file ${file} declares "@changes ... each $${each}" but has no parameter $${each}`);
    }
    return { kind: m[2], op: m[3] as DeclaredChange['op'], each, feed: m[5] === undefined };
  }

  private expand(name: string, text: string, chain: string[]): string {
    return text.replace(INCLUDE, (_line, ref: string) => {
      const fragment = this.fragments.get(ref);
      if (fragment === undefined) throw new Error(`Cypher "${name}" includes "${ref}", which has no file ${ref}.cypher under ${this.root}`);
      if (chain.includes(ref)) throw new Error(`Cypher include cycle: ${[...chain, ref].join(' -> ')}`);
      return this.expand(ref, fragment, [...chain, ref]).replace(/\n+$/, '');
    });
  }
}

/**
 * The statement as sent to Neo4j: comments removed (strings and quoted names kept), blank lines
 * dropped; the files keep them for readers. This halves what goes over Bolt for the largest
 * statements; it does not measurably change their time (docs/benchmarks.md, "A correction").
 */
export function withoutComments(text: string): string {
  return text
    .replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`/g, (m) =>
      m.startsWith('//') || m.startsWith('/*') ? '' : m,
    )
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '')
    .join('\n');
}

/** The statement without comments, string literals and quoted names, for clause detection. */
function codeOnly(text: string): string {
  // One left-to-right pass, so that a quote inside a comment or a `//` inside a string is no trap.
  return text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`[^`]*`/g, (m) => (m.startsWith('/') ? ' ' : "''"));
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

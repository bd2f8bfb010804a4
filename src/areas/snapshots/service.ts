import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { Logger } from 'pino';
import type { Scope } from '../../auth/types';
import { Conflict, Duplicate, isMissingProcedure, Unavailable } from '../../db/storeErrors';
import { AppError, badRequest, invalidState } from '../../errors';
import { newWebhookSecret } from '../webhooks/outbox';
import { EXPORT_FORMAT, EXPORT_VERSION, kindOf, type NodeRow, parseLine, plainProps, type RelationshipRow } from './format';
import { IMPORT_LEASE_MS, type SnapshotStore } from './store';

/** Rows written per transaction of an import when none is given (the composition root passes IMPORT_BATCH_ROWS). */
const IMPORT_BATCH = 5000;
/**
 * Batches of an import sent before the oldest has been answered. With the walk extension each
 * batch shares its environment's lock (cypher/import/createNodesExt.cypher), so Neo4j writes them
 * at once; with the Cypher statements each takes the lock (it renews the import's lease), so Neo4j
 * writes them one after the other while the next is packed, sent and decoded (docs/benchmarks.md,
 * "The import: the next batch sent while one is written", "The import's batches side by side").
 */
const IMPORT_WRITES_IN_FLIGHT = 2;
/**
 * With the extension the batches do not renew the import's lease: it is renewed on its own once
 * this much of it has passed, after the batches in flight (IMPORT_LEASE_MS is two minutes).
 */
const LEASE_RENEWAL_MS = IMPORT_LEASE_MS / 4;
/** Held exports tried before an export is streamed without holding its writers. */
const HELD_ATTEMPTS = 3;
/** Records removed per transaction when a failed import is discarded. */
const DISCARD_BATCH = 10_000;
/** The longest line an import reads (a record with large attributes); longer answers 400. */
const MAX_LINE_BYTES = 4 * 1024 * 1024;
/** An export writes its lines in chunks of about this size. */
const CHUNK_CHARS = 64 * 1024;
/** The parts the walk extension answers an export in (cypher/export/parts.cypher), in characters. */
const PART_CHARS = 1024 * 1024;
/** After Neo4j answered that it lacks the extension's export procedure, how long exports read with Cypher before asking again. */
const PROCEDURE_RETRY_MS = 5 * 60_000;

export interface ImportSummary {
  nodes: number;
  relationships: number;
  revision?: number;
  seconds: number;
}

/**
 * Export and import of an environment (docs/behaviour.md section 16).
 *
 * Export: exactly one revision, while writes go on (docs/policy-as-code.md, "Exactly one revision").
 * When the walk extension answers, graphauthz.exportParts (cypher/export/parts.cypher) takes the
 * environment's lock only to read its revision R and open a capture of every later change, reads
 * every record and link into Neo4j's memory while writes go on, and takes the lock once more,
 * briefly, to make what changed since R from the capture (extensionExport below): writers wait
 * for those two short holds, not for the read.
 * Without it (the held Cypher read), one transaction (on the leader) first takes
 * the environment's write lock (cypher/export/holdWriters.cypher) and reads its revision R: every
 * write to an environment moves its revision in its own transaction, taking that lock, so from
 * then on no write of it commits. Every write that produced a revision up to R has committed, and
 * is read (Neo4j reads committed data); every later one waits at its revision's bump, its changes
 * uncommitted and unseen. The rows are read into the service (a chunk of lines at a time, held
 * until the end), the transaction is rolled back (it changed nothing), and the writers go on;
 * only then is the answer streamed, its header and end line naming R. Writers wait at most
 * EXPORT_HOLD_MS (below WRITE_TIMEOUT_MS, so a held write never times out): an environment that takes
 * longer to read answers 503 before any line, and its writers lose nothing but that wait. The
 * cost: writers wait for the read of the environment (not for the client's download), and the
 * service holds the export's lines while it answers (about the size of the file).
 *
 * Import: only into an empty environment. The environment is marked as importing in one small
 * transaction (cypher/import/begin.cypher): from then on every request to it but this import
 * answers 503 (src/http/authenticator.ts), so no question sees a staged record, and nothing mixes
 * with them. The body is read as a stream, line by line, and written in batches of IMPORT_BATCH_ROWS
 * rows, each a transaction of its own (CREATE, no MERGE); the next batch is read, parsed and sent
 * while the one before it is written (the relationships' first batch once every batch of records
 * has committed). One small transaction at the end makes
 * it visible (the mark goes, the revision moves: every cached answer is dropped). Any failure (a
 * bad line, the client gone, IMPORT_MAX_BYTES passed, a database error) removes what was staged,
 * in batches, and leaves the environment as new (its `default` tenant). A process that dies mid
 * import leaves the mark with a lease that no batch renews: the next import takes it over and
 * removes the leftovers first.
 */
export class SnapshotService {
  constructor(
    private readonly store: SnapshotStore,
    private readonly importMaxBytes: number,
    /** EXPORT_HOLD_MS: the longest an export holds its environment's writers. */
    private readonly exportHoldMs: number,
    private readonly extension: {
      /** Whether the walk extension answers (src/db/walkSelection.ts): its export procedure reads the environment. */
      loaded: () => boolean;
      /** The longest an export read by the extension may take to be pulled (ADMIN_TIMEOUT_MS). */
      readMs: number;
    } = { loaded: () => false, readMs: 60_000 },
    /** Told how long each export held its environment's writers (authz_export_writers_held_seconds). */
    private readonly held: (read: 'extension' | 'held', ms: number) => void = () => undefined,
    /** IMPORT_BATCH_ROWS: rows written per transaction of an import. */
    private readonly importBatch = IMPORT_BATCH,
  ) {}

  /** When Neo4j last answered that it lacks graphauthz.exportParts (an older jar). */
  private procedureMissingAt = Number.NEGATIVE_INFINITY;

  /**
   * The environment at exactly one revision while writes go on (held), or, when it cannot be read
   * within EXPORT_HOLD_MS, streamed without holding its writers (the revision checked at the end).
   */
  async exportStream(scope: Scope): Promise<Readable> {
    for (let attempt = 1; ; attempt++) {
      try {
        if (this.extension.loaded() && Date.now() - this.procedureMissingAt > PROCEDURE_RETRY_MS) return await this.extensionExport(scope);
        return await this.heldExport(scope);
      } catch (err) {
        if (isMissingProcedure(err)) {
          // A walk extension without the export procedure (an older jar): the Cypher read, held.
          this.procedureMissingAt = Date.now();
          continue;
        }
        // Taking the writers' lock can deadlock with a writer (Neo4j ends one of the two): try again, then stream.
        if (err instanceof Conflict && attempt < HELD_ATTEMPTS) continue;
        if (err instanceof TooLargeToHold || err instanceof Conflict) return this.streamedExport(scope);
        throw err;
      }
    }
  }

  /**
   * Read by the walk extension (cypher/export/parts.cypher, graphauthz.exportParts): the procedure
   * holds the writers only to read the revision and, at the end, to make what changed meanwhile
   * (a capture that fails: while it reads, at most EXPORT_HOLD_MS); the parts travel to the service
   * and become lines after that.
   */
  private async extensionExport(scope: Scope): Promise<Readable> {
    const stream = await this.store.openLeader(this.extension.readMs);
    const parts: { section: string; part: string; lines: number }[] = [];
    let revision: number | undefined;
    try {
      for await (const row of stream.rows(this.store.q.parts, { env: scope.envId, partChars: PART_CHARS, holdMs: this.exportHoldMs })) {
        if (row.section === 'too_large') throw new TooLargeToHold();
        if (revision === undefined) this.held('extension', Number(row.heldMs));
        revision = Number(row.revision);
        if (row.lines > 0) parts.push(row);
      }
    } finally {
      await stream.close();
    }
    if (revision === undefined) throw unavailableForExport('the environment was deleted while it was exported');
    let nodes = 0;
    let relationships = 0;
    for (const p of parts) {
      if (p.section === 'relationships') relationships += Number(p.lines);
      else nodes += Number(p.lines);
    }
    const header = `${headerLine(scope, revision, 'extension')}\n`;
    const end = `${JSON.stringify({ type: 'end', revision, nodes, relationships })}\n`;
    // Each part becomes lines as the response pulls it: one part (about PART_CHARS) at a time, so
    // the requests this service answers meanwhile (the environment's writes) wait for one part's
    // work at most, not for the whole environment's.
    function* lines(): Generator<string> {
      yield header;
      /** A record's labels (as the extension wrote them) and its kind: a few distinct sets of labels. */
      const kinds = new Map<string, string>();
      for (const p of parts) {
        if (p.section === 'relationships') {
          yield `${p.part}\n`;
          continue;
        }
        let chunk = '';
        for (const text of p.part.split('\n')) {
          const tab = text.indexOf('\t');
          const labels = text.slice(0, tab);
          const props = text.slice(tab + 1);
          let kind = kinds.get(labels);
          if (kind === undefined) {
            const labelList = JSON.parse(labels) as string[];
            // Only an approval's kind is told by a property (its `type`): never kept.
            if (labelList.includes('OperationApproval'))
              kind = JSON.stringify(kindOf(labelList, JSON.parse(props) as Record<string, unknown>));
            else kinds.set(labels, (kind = JSON.stringify(kindOf(labelList, {}))));
          }
          chunk += `{"type":"node","kind":${kind},"labels":${labels},"props":${props}}\n`;
        }
        yield chunk;
      }
      yield end;
    }
    return Readable.from(lines(), { objectMode: false, highWaterMark: CHUNK_CHARS });
  }

  private async heldExport(scope: Scope): Promise<Readable> {
    const q = this.store.q;
    const stream = await this.store.openHeld(this.exportHoldMs);
    const chunks: string[] = [];
    let revision: number;
    let nodes = 0;
    let relationships = 0;
    try {
      // From here until the rollback below, no write to the environment commits: each waits at its revision's bump.
      const heldSince = Date.now();
      const row = await stream.one(q.holdWriters, { envId: scope.envId });
      if (!row) throw unavailableForExport('the environment was deleted while it was exported');
      revision = Number(row.revision);
      let chunk = `${headerLine(scope, revision, 'held')}\n`;
      const add = (line: string) => {
        chunk += `${line}\n`;
        if (chunk.length >= CHUNK_CHARS) {
          chunks.push(chunk);
          chunk = '';
          if (Date.now() - heldSince > this.exportHoldMs) throw new TooLargeToHold();
        }
      };
      for await (const row of stream.rows(q.nodes, { env: scope.envId })) {
        add(nodeLine(row));
        nodes++;
      }
      for await (const row of stream.rows(q.relationships, { env: scope.envId })) {
        add(relationshipLine(row));
        relationships++;
      }
      if (Date.now() - heldSince > this.exportHoldMs) throw new TooLargeToHold();
      this.held('held', Date.now() - heldSince);
      chunks.push(`${chunk}${JSON.stringify({ type: 'end', revision, nodes, relationships })}\n`);
    } catch (err) {
      // The server ends the transaction at the bound (a timeout): the same answer.
      if (err instanceof Unavailable && err.reason === 'timeout') throw new TooLargeToHold();
      throw err;
    } finally {
      // Rolled back: nothing was changed, and the environment's writers go on.
      await stream.close();
    }
    return Readable.from(chunks, { objectMode: false, highWaterMark: CHUNK_CHARS });
  }

  /**
   * An environment too large to read within EXPORT_HOLD_MS: one read transaction, its rows pulled
   * as the response is written (the service holds a chunk, never the environment), its writers
   * not held. The revision is read first and again last in the same transaction: an unchanged one
   * means every line was read at that one revision; a changed one ends the stream with an error
   * line instead of the end line (an import refuses it): export again at a time of fewer writes.
   */
  private async streamedExport(scope: Scope): Promise<Readable> {
    const stream = await this.store.openRead();
    let revision: number;
    try {
      revision = Number((await stream.one(this.store.q.revision, { envId: scope.envId }))?.revision ?? 0);
    } catch (err) {
      await stream.close();
      throw err;
    }
    const q = this.store.q;
    async function* lines(): AsyncGenerator<string> {
      let chunk = `${headerLine(scope, revision, 'streamed')}\n`;
      let nodes = 0;
      let relationships = 0;
      try {
        for await (const row of stream.rows(q.nodes, { env: scope.envId })) {
          chunk += `${nodeLine(row)}\n`;
          nodes++;
          if (chunk.length >= CHUNK_CHARS) {
            yield chunk;
            chunk = '';
          }
        }
        for await (const row of stream.rows(q.relationships, { env: scope.envId })) {
          chunk += `${relationshipLine(row)}\n`;
          relationships++;
          if (chunk.length >= CHUNK_CHARS) {
            yield chunk;
            chunk = '';
          }
        }
        const last = Number((await stream.one(q.revision, { envId: scope.envId }))?.revision ?? 0);
        chunk +=
          last === revision
            ? `${JSON.stringify({ type: 'end', revision, nodes, relationships })}\n`
            : `${JSON.stringify({ type: 'error', message: `the environment changed while it was exported (revision ${revision}, then ${last}); it is too large to hold its writers within EXPORT_HOLD_MS: raise it, or export at a time of fewer writes` })}\n`;
      } catch (err) {
        // The answer has started: a failure is its last line (an import refuses a stream without the end line).
        chunk += `${JSON.stringify({ type: 'error', message: err instanceof Error ? err.message : String(err) })}\n`;
      } finally {
        await stream.close();
      }
      yield chunk;
    }
    const readable = Readable.from(lines(), { objectMode: false, highWaterMark: CHUNK_CHARS });
    // A client gone before the first line was pulled never runs the generator's `finally`.
    readable.once('close', () => void stream.close());
    return readable;
  }

  async import(scope: Scope, req: IncomingMessage, log?: Logger): Promise<ImportSummary> {
    const started = Date.now();
    const declared = Number(req.headers['content-length']);
    if (declared > this.importMaxBytes) throw bodyTooLarge(this.importMaxBytes);
    const env = scope.envId;
    const importId = randomUUID();
    const begun = await this.store.begin(env, importId);
    if (begun.state === 'importing') throw invalidState('Another import is filling this environment.');
    if (begun.state === 'not_empty') {
      throw invalidState(
        'The environment holds facts: an import goes into an empty environment (a new one, or one whose records were all deleted).',
      );
    }
    try {
      if (begun.stale) await this.discard(env, importId);
      const counts = await this.load(env, importId, req);
      if (!(await this.store.finish(env, importId, counts))) throw abandoned();
      return { ...counts, seconds: (Date.now() - started) / 1000 };
    } catch (err) {
      try {
        await this.discard(env, importId);
        await this.store.abandon(env, importId);
      } catch (cleanup) {
        // The mark stays, with its lease: the next import of this environment removes the rest.
        log?.error({ err: cleanup, env }, 'a failed import could not remove what it staged; the next import will');
      }
      if (err instanceof Duplicate) {
        throw invalidState(
          `The stream holds a record whose key or id is taken (${err.message}): a key twice in it, or ids that another environment of this deployment holds (graph-authz copy gives new ids).`,
        );
      }
      throw err;
    }
  }

  private async discard(env: string, importId: string): Promise<void> {
    while ((await this.store.discardBatch(env, importId, DISCARD_BATCH)) === DISCARD_BATCH);
  }

  /**
   * Reads the body line by line, sending batches as they fill, up to IMPORT_WRITES_IN_FLIGHT of them
   * unanswered while the next is read and parsed (a write's error is thrown when a later batch waits
   * for it, or at the end). The first batch of relationships is sent once every batch of records has
   * committed (its ends are found by id). Whatever stops the reading first waits for every batch
   * sent, so that the discard that follows (`import`) finds everything staged.
   */
  private async load(env: string, importId: string, req: IncomingMessage): Promise<{ nodes: number; relationships: number }> {
    const decoder = new StringDecoder('utf8');
    let bytes = 0;
    let pending = '';
    let lineNo = 0;
    let header = false;
    let end: { nodes: number; relationships: number } | undefined;
    let nodeBatch: NodeRow[] = [];
    let relBatch: RelationshipRow[] = [];
    let nodes = 0;
    let relationships = 0;
    let linking = false;
    /** The batches being written, oldest first (at most IMPORT_WRITES_IN_FLIGHT). */
    const inFlight: Promise<void>[] = [];
    /** Waits for every batch being written; throws the first error. */
    const written = async () => {
      while (inFlight.length) await inFlight.shift();
    };
    /** When the import's lease was last renewed (`begin` took it). */
    let renewed = Date.now();
    /** Sends a batch once fewer than IMPORT_WRITES_IN_FLIGHT are unanswered (the lease renewed first when due). */
    const send = async (write: () => Promise<void>) => {
      if (this.store.batchesShareLock && Date.now() - renewed > LEASE_RENEWAL_MS) {
        await written();
        if (!(await this.store.renewLease(env, importId))) throw abandoned();
        renewed = Date.now();
      }
      while (inFlight.length >= IMPORT_WRITES_IN_FLIGHT) await inFlight.shift();
      const w = write();
      // Observed when a later batch or the end waits for it; not an unhandled rejection meanwhile.
      w.catch(() => undefined);
      inFlight.push(w);
    };
    const flushNodes = async () => {
      if (!nodeBatch.length) return;
      const rows = nodeBatch;
      nodeBatch = [];
      await send(async () => {
        const created = await this.store.createNodes(env, importId, rows);
        if (created !== rows.length) throw abandoned();
        nodes += created;
      });
    };
    const flushRelationships = async () => {
      if (!relBatch.length) return;
      const rows = relBatch;
      const upTo = lineNo;
      relBatch = [];
      await send(async () => {
        const created = await this.store.createRelationships(env, importId, rows);
        if (created !== rows.length) {
          // Nothing written when another import has taken the environment over: that is the conflict, not the stream.
          if (!(await this.store.renewLease(env, importId))) throw abandoned();
          throw badRequest(
            `Of ${rows.length} relationships up to line ${upTo}, ${rows.length - created} name a record id the stream did not hold before them, or are GROUPS links that do not start at a group.`,
          );
        }
        relationships += created;
      });
    };
    const take = async (text: string) => {
      lineNo++;
      if (!text.trim()) return;
      if (end) throw badRequest(`line ${lineNo}: nothing may follow the end line.`);
      const line = parseLine(text, lineNo);
      if (!header) {
        if (line.type !== 'header') throw badRequest(`line ${lineNo}: the stream starts with its header line.`);
        header = true;
        return;
      }
      switch (line.type) {
        case 'header':
          throw badRequest(`line ${lineNo}: a second header.`);
        case 'node':
          if (linking) throw badRequest(`line ${lineNo}: records come before the relationships.`);
          nodeBatch.push(line.row);
          if (line.row.labels.includes('ElementsConfig') && line.row.props.webhook_url) {
            // The secret is never exported: a restored webhook signs with a new one (shown once the config is updated).
            line.row.props.webhook_secret = newWebhookSecret();
          }
          if (nodeBatch.length >= this.importBatch) await flushNodes();
          return;
        case 'relationship':
          if (!linking) {
            await flushNodes();
            await written();
            linking = true;
          }
          relBatch.push(line.row);
          if (relBatch.length >= this.importBatch) await flushRelationships();
          return;
        case 'end':
          end = line;
          return;
      }
    };

    try {
      // Not destroyed when a bad line stops the reading: the answer (400, 413) still goes out on its socket.
      for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > this.importMaxBytes) throw bodyTooLarge(this.importMaxBytes);
        pending += decoder.write(chunk);
        let nl = pending.indexOf('\n');
        while (nl >= 0) {
          const text = pending.slice(0, nl);
          pending = pending.slice(nl + 1);
          await take(text);
          nl = pending.indexOf('\n');
        }
        if (pending.length > MAX_LINE_BYTES) throw badRequest(`line ${lineNo + 1} is longer than ${MAX_LINE_BYTES} bytes.`);
      }
      pending += decoder.end();
      if (pending) await take(pending);
      if (!req.complete) throw badRequest('The body was cut off before its end.');
      await flushNodes();
      await flushRelationships();
      await written();
    } catch (err) {
      // Every batch sent ends (committed or not) before the discard removes what was staged.
      await Promise.allSettled(inFlight);
      throw err;
    }
    if (!header) throw badRequest('The body is empty: an import reads an export (graph-authz export).');
    if (!end) throw badRequest(`The stream ends at line ${lineNo} without its end line: it was cut off, or its export failed.`);
    if (end.nodes !== nodes || end.relationships !== relationships) {
      throw badRequest(
        `The end line counts ${end.nodes} records and ${end.relationships} relationships; the stream held ${nodes} and ${relationships}.`,
      );
    }
    return { nodes, relationships };
  }
}

/** 413, as the body limits answer (src/http/bodies.ts), naming IMPORT_MAX_BYTES. */
const bodyTooLarge = (limit: number) =>
  new AppError(413, 'INVALID_INPUT', `The import is larger than ${limit} bytes, the limit IMPORT_MAX_BYTES sets.`);

/**
 * An export's lines: its header (naming the revision it holds, and how it was read: `extension`,
 * `held` by the Cypher read, or `streamed` without holding the writers), a record, a link.
 */
const headerLine = (scope: Scope, revision: number, read: 'extension' | 'held' | 'streamed') =>
  JSON.stringify({
    type: 'header',
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    revision,
    read,
    project: { id: scope.projectId, key: scope.projectKey },
    environment: { id: scope.envId, key: scope.envKey },
    exported_at: new Date().toISOString(),
  });
const nodeLine = (row: { labels: string[]; props: Record<string, unknown> }) => {
  const props = plainProps(row.props);
  return JSON.stringify({ type: 'node', kind: kindOf(row.labels, props), labels: row.labels, props });
};
const relationshipLine = (row: { type: string; from: string; to: string; props: Record<string, unknown> }) =>
  JSON.stringify({ type: 'relationship', rel: row.type, from: row.from, to: row.to, props: plainProps(row.props) });

/** The environment could not be read within EXPORT_HOLD_MS: its writers went on; the export is streamed without holding them. */
class TooLargeToHold extends Error {}

const unavailableForExport = (why: string) => invalidState(`The export stopped: ${why}.`);

const abandoned = () =>
  new AppError(409, 'INVALID_STATE', 'The import was taken over by another (its lease ran out while it waited); nothing of it was kept.');

import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { stat } from 'node:fs/promises';
import { Readable, Transform, type TransformCallback, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { type Api, CliError, errorOf } from './api';

/**
 * Export, import and copy of an environment (docs/behaviour.md section 16) through the service's streamed
 * endpoints: `GET /v2/export/{p}/{e}` and `POST /v2/import/{p}/{e}` (JSON lines). Both sides
 * stream: the command holds a chunk of the stream at a time, never the file or the environment
 * (`copy` also keeps the map of the records' old ids to their new ones).
 */

/** Counts the lines going through, for the progress line; keeps the last line (the end or error line of an export). */
export class LineCounter extends Transform {
  lines = 0;
  bytes = 0;
  /** The last complete line seen, and what came after it (a line not ended yet). */
  private last = '';
  private partial = '';
  private readonly decoder = new StringDecoder('utf8');
  constructor(private readonly onProgress: (lines: number) => void) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) this.lines++;
    // A chunk may end anywhere: in a line, or right after one (the next chunk then holds the last
    // line whole). The last complete line is kept apart from the unfinished one, so that the end
    // line is found however the stream was cut into chunks.
    const text = this.partial + this.decoder.write(chunk);
    const end = text.lastIndexOf('\n');
    if (end >= 0) {
      this.last = text.slice(text.lastIndexOf('\n', end - 1) + 1, end);
      this.partial = text.slice(end + 1);
    } else this.partial = text.slice(-1_000_000);
    this.onProgress(this.lines);
    done(null, chunk);
  }
  /** The stream's last line, parsed (undefined when it is not JSON: cut off). */
  lastLine(): { type?: string; message?: string; nodes?: number; relationships?: number } | undefined {
    try {
      return JSON.parse(this.partial.trim() || this.last);
    } catch {
      return undefined;
    }
  }
}

/**
 * Gives every record and link of an export new ids as it streams (`copy` within one deployment:
 * ids are unique there), and the references to them: links' ends, an approval's `config_id`, a
 * user invite's `role_id`, `tenant_id` and `resource_instance_id`. An old id is given its new one
 * where it is first seen (a record or a reference), so the order of the lines does not matter.
 */
class IdRemapper extends Transform {
  private readonly ids = new Map<string, string>();
  private pending = '';
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const text = this.pending + chunk.toString('utf8');
    const cut = text.lastIndexOf('\n');
    this.pending = text.slice(cut + 1);
    done(null, cut >= 0 ? this.remapLines(text.slice(0, cut + 1)) : '');
  }
  override _flush(done: TransformCallback): void {
    done(null, this.pending ? this.remapLines(this.pending) : '');
  }
  private remapLines(text: string): string {
    return text
      .split('\n')
      .map((line) => (line.trim() ? this.remap(line) : line))
      .join('\n');
  }
  private newId(old: unknown): unknown {
    if (typeof old !== 'string') return old;
    let id = this.ids.get(old);
    if (!id) this.ids.set(old, (id = randomUUID()));
    return id;
  }
  private remap(line: string): string {
    let v: { type?: string; kind?: string; props?: Record<string, unknown>; from?: string; to?: string };
    try {
      v = JSON.parse(line);
    } catch {
      return line; // the import names the bad line
    }
    if (v.type === 'node' && v.props) {
      v.props.id = this.newId(v.props.id);
      if (typeof v.props.config_id === 'string') v.props.config_id = this.newId(v.props.config_id);
      if (v.kind === 'user_invite')
        for (const ref of ['role_id', 'tenant_id', 'resource_instance_id'])
          if (typeof v.props[ref] === 'string') v.props[ref] = this.newId(v.props[ref]);
    } else if (v.type === 'relationship') {
      v.from = this.newId(v.from) as string;
      v.to = this.newId(v.to) as string;
      if (v.props && typeof v.props.id === 'string') v.props.id = randomUUID();
    } else return line;
    return JSON.stringify(v);
  }
}

/** A progress line on stderr for long work: overwritten in place on a terminal, else one every 5 s. */
export function progress(label: string, quiet: boolean) {
  const started = Date.now();
  const tty = process.stderr.isTTY === true;
  let shown = 0;
  const line = (n: number) => {
    const s = (Date.now() - started) / 1000;
    return `graph-authz: ${label}: ${n.toLocaleString('en-US')} lines, ${s.toFixed(1)} s (${Math.round(n / Math.max(s, 0.001)).toLocaleString('en-US')}/s)`;
  };
  return {
    tick(n: number) {
      if (quiet) return;
      const now = Date.now();
      if (now - shown < (tty ? 250 : 5000)) return;
      shown = now;
      process.stderr.write(tty ? `\r${line(n)}` : `${line(n)}\n`);
    },
    done(n: number) {
      if (!quiet) process.stderr.write(`${tty ? '\r' : ''}${line(n)}\n`);
      return (Date.now() - started) / 1000;
    },
  };
}

async function exportResponse(api: Api, path: string): Promise<Readable> {
  let res: Response;
  try {
    res = await fetch(api.url.replace(/\/+$/, '') + path, { headers: { authorization: `Bearer ${api.keyValue}` } });
  } catch (err) {
    throw new CliError(`cannot reach ${api.url}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`, 2);
  }
  if (res.status >= 300 || !res.body) {
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* keep the text */
    }
    throw errorOf('GET', path, { status: res.status, body });
  }
  return Readable.fromWeb(res.body as unknown as WebReadableStream);
}

function checkWhole(counter: LineCounter, what: string): { nodes: number; relationships: number } {
  const last = counter.lastLine();
  if (last?.type === 'end') return { nodes: last.nodes ?? 0, relationships: last.relationships ?? 0 };
  if (last?.type === 'error') throw new CliError(`${what} failed: ${last.message}`, 1);
  throw new CliError(`${what} was cut off (no end line)`, 1);
}

/** `graph-authz export`: the environment's snapshot to a file or standard output. */
export async function exportTo(api: Api, exportPath: string, out: string | undefined, quiet: boolean) {
  const bar = progress('export', quiet);
  const counter = new LineCounter((n) => bar.tick(n));
  const source = await exportResponse(api, exportPath);
  const sink: Writable = out ? createWriteStream(out) : process.stdout;
  await pipeline(source, counter, sink, { end: out !== undefined });
  const seconds = bar.done(counter.lines);
  const counts = checkWhole(counter, 'the export');
  return { ...counts, lines: counter.lines, bytes: counter.bytes, seconds };
}

/**
 * POSTs a stream to the import endpoint with node:http (fetch would give up waiting for the
 * answer after 300 s, and the answer comes once the whole import is written). The body is piped:
 * it is read as fast as the service takes it.
 */
async function postImport(api: Api, importPath: string, body: Readable, length?: number) {
  const url = new URL(api.url.replace(/\/+$/, '') + importPath);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = send(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${api.keyValue}`,
        'content-type': 'application/x-ndjson',
        ...(length !== undefined ? { 'content-length': String(length) } : { 'transfer-encoding': 'chunked' }),
      },
    });
    req.on('response', (res) => {
      let answer = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (answer += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: answer }));
      res.on('error', reject);
    });
    req.on('error', (err) => reject(new CliError(`cannot reach ${api.url}: ${err.message}`, 2)));
    // A source that fails (an export cut off while copying) ends the request: the service refuses the stream.
    body.on('error', (err) => req.destroy(err));
    body.pipe(req);
  });
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* keep the text */
  }
  if (status >= 300) throw errorOf('POST', importPath, { status, body: parsed });
  return parsed as { nodes: number; relationships: number; seconds: number };
}

/** `graph-authz import FILE`: a snapshot into an empty environment, all or nothing. */
export async function importFrom(api: Api, importPath: string, file: string, quiet: boolean) {
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as Error).message}`, 2);
  }
  const bar = progress('import', quiet);
  const counter = new LineCounter((n) => bar.tick(n));
  const source = createReadStream(file).pipe(counter);
  const answer = await postImport(api, importPath, source, size);
  bar.done(counter.lines);
  return answer;
}

/** `graph-authz copy`: one environment's snapshot into another (empty) of the same deployment, with new ids. */
export async function copyBetween(api: Api, exportPath: string, importPath: string, quiet: boolean) {
  const bar = progress('copy', quiet);
  const counter = new LineCounter((n) => bar.tick(n));
  const source = await exportResponse(api, exportPath);
  const remapped = source.pipe(new IdRemapper()).pipe(counter);
  source.on('error', (err) => remapped.destroy(err));
  const answer = await postImport(api, importPath, remapped);
  bar.done(counter.lines);
  return answer;
}

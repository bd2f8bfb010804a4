import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The layers of src/ (docs/CONTRIBUTING-AREAS.md, "Layers"), read from the imports of every file
 * with TypeScript's own parser (import, export-from, import(), type-only imports too).
 */
const ROOT = resolve(__dirname, '../..');
const SRC = join(ROOT, 'src');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

interface SourceFile {
  /** src/areas/facts/store.ts */
  path: string;
  text: string;
  /** Files of src/ it imports (src/...), and the packages it imports. */
  imports: string[];
  packages: string[];
}

function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(dirname(join(ROOT, from)), spec);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base]) {
    try {
      if (statSync(candidate).isFile()) return relative(ROOT, candidate);
    } catch {
      /* not this one */
    }
  }
  return undefined;
}

const files: SourceFile[] = filesUnder(SRC).map((abs) => {
  const path = relative(ROOT, abs);
  const text = readFileSync(abs, 'utf8');
  const found = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
  const local = found.filter((s) => s.startsWith('.'));
  const imports = local.map((s) => resolveImport(path, s) ?? `${path} -> ${s} (unresolved)`);
  return { path, text, imports, packages: found.filter((s) => !s.startsWith('.')) };
});

/**
 * Bottom to top: a file may import its own layer and the layers below it, never one above.
 * base: src/errors.ts, src/logger.ts, src/util/ (neutral helpers) · config · metrics (the
 * registry) · db · auth (identities, secrets) · http (route tables, authentication, koa) ·
 * areas · the root (composition root, start-up, route table list, app). Beside them, not
 * above: src/cli/, the graph-authz command, a client of the HTTP API that imports only its own
 * files (and packages), never the service.
 */
const LAYERS: [string, (p: string) => boolean][] = [
  ['base', (p) => p === 'src/errors.ts' || p === 'src/logger.ts' || p.startsWith('src/util/')],
  ['config', (p) => p === 'src/config.ts'],
  ['metrics', (p) => p.startsWith('src/metrics/')],
  ['db', (p) => p.startsWith('src/db/')],
  ['auth', (p) => p.startsWith('src/auth/')],
  ['http', (p) => p.startsWith('src/http/')],
  ['areas', (p) => p.startsWith('src/areas/')],
  ['root', (p) => /^src\/[^/]+\.ts$/.test(p)],
  ['cli', (p) => p.startsWith('src/cli/')],
];
const layerOf = (p: string) => LAYERS.findIndex(([, is]) => is(p));

/**
 * An area's file by its name: its route table (`routes.ts`, `*Routes.ts`), its schemas, a service
 * (`service.ts`, `*Service.ts`), a store (`store.ts`, `*Store.ts`: the only place Cypher runs), or
 * another file of the domain (views, flows, background jobs, a store's helpers).
 */
type Role = 'routes' | 'schemas' | 'service' | 'store' | 'domain';
const roleOf = (p: string): Role =>
  /[Rr]outes\.ts$/.test(p)
    ? 'routes'
    : /schemas\.ts$/.test(p)
      ? 'schemas'
      : /[Ss]ervice\.ts$/.test(p)
        ? 'service'
        : /[Ss]tore\.ts$/.test(p)
          ? 'store'
          : 'domain';
const areaOf = (p: string) => /^src\/areas\/([^/]+)\//.exec(p)?.[1];
/**
 * What a role may import of an area (its own or another's): routes -> service -> store. A store
 * may use another file of the domain only when that file is a helper (it imports no service or routes).
 */
const MAY_IMPORT: Record<Role, Role[]> = {
  routes: ['routes', 'schemas', 'service', 'domain', 'store'],
  service: ['schemas', 'service', 'domain', 'store'],
  domain: ['schemas', 'service', 'domain', 'store'],
  store: ['store', 'domain'],
  schemas: ['schemas'],
};
const byPath = () => new Map(files.map((f) => [f.path, f]));
const isHelper = (p: string) => !(byPath().get(p)?.imports ?? []).some((t) => areaOf(t) && ['service', 'routes'].includes(roleOf(t)));
/** What a file below the routes may use of src/http/: the schema builders and paging, no koa. */
const NEUTRAL_HTTP = new Set(['src/http/schema.ts', 'src/http/paging.ts']);
const KOA = /^(koa|@koa\/.*|koa-.*)$/;

/** Every broken rule, one line each (the test prints them all). */
function violations(): string[] {
  const out: string[] = [];
  for (const f of files) {
    const mine = layerOf(f.path);
    if (mine < 0) out.push(`${f.path}: in no layer`);
    const area = areaOf(f.path);
    const role = area ? roleOf(f.path) : undefined;
    for (const to of f.imports) {
      if (to.includes('(unresolved)')) {
        out.push(`unresolved import: ${to}`);
        continue;
      }
      const theirs = layerOf(to);
      if (LAYERS[mine]?.[0] === 'cli' && LAYERS[theirs]?.[0] !== 'cli') out.push(`the command imports the service: ${f.path} -> ${to}`);
      if (theirs > mine) out.push(`climbs: ${f.path} (${LAYERS[mine][0]}) -> ${to} (${LAYERS[theirs][0]})`);
      if (!role) continue;
      const toArea = areaOf(to);
      if (toArea) {
        const toRole = roleOf(to);
        if (toArea !== area && toRole === 'routes') out.push(`another area's routes: ${f.path} -> ${to}`);
        else if (!MAY_IMPORT[role].includes(toRole)) out.push(`${role} imports ${toRole}: ${f.path} -> ${to}`);
        else if (role === 'store' && toRole === 'domain' && !isHelper(to))
          out.push(`store imports a file that uses services: ${f.path} -> ${to}`);
      }
      if (role !== 'routes' && to.startsWith('src/http/') && !NEUTRAL_HTTP.has(to)) out.push(`HTTP below the routes: ${f.path} -> ${to}`);
      if (role === 'store' && to === 'src/errors.ts')
        out.push(`a store raises public errors: ${f.path} -> ${to} (throw a store error, src/db/storeErrors.ts)`);
    }
    const koa = f.packages.filter((p) => KOA.test(p));
    const koaAllowed = f.path.startsWith('src/http/') || f.path === 'src/app.ts' || role === 'routes';
    if (koa.length && !koaAllowed) out.push(`koa below the routes: ${f.path} imports ${koa.join(', ')}`);
    // Named statements are resolved (`db.statements({...})`, `db.statement(...)`) and run in stores only.
    const runsCypher = /\.statements?\(/.test(f.text);
    if (runsCypher && !f.path.startsWith('src/db/') && role !== 'store') out.push(`Cypher outside a store: ${f.path}`);
  }
  return out;
}

/** Import cycles between files, each as its files in order. */
function cycles(): string[][] {
  const graph = new Map(files.map((f) => [f.path, f.imports.filter((t) => !t.includes('(unresolved)'))]));
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (p: string) => {
    state.set(p, 'open');
    stack.push(p);
    for (const to of graph.get(p) ?? []) {
      if (state.get(to) === 'open') found.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(p, 'done');
  };
  for (const p of graph.keys()) if (!state.has(p)) visit(p);
  return found;
}

describe('the layers of src/ (docs/CONTRIBUTING-AREAS.md)', () => {
  it('reads every file of src/ and its imports', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.find((f) => f.path === 'src/compose.ts')?.imports).toContain('src/areas/facts/service.ts');
  });

  it('holds: no import climbs, routes -> service -> store, no koa below routes, Cypher in stores only, store errors from stores', () => {
    expect(violations()).toEqual([]);
  });

  it('has no import cycle between files', () => {
    expect(cycles().map((c) => c.join(' -> '))).toEqual([]);
  });
});

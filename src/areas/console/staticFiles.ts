import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';

/** One built asset of the console or the API reference, held in memory. */
export interface StaticFile {
  body: Buffer;
  type: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The files `npm run build` wrote to `dist/console/` (console/build.mjs). Looked up from this
 * module upwards to the package root, so the same code finds them when run from `src/` (tests)
 * and from `dist/src/` (the image). Read once: the set is small and fixed at build time.
 */
export function findConsoleDir(from = __dirname): string | undefined {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) {
      const built = join(dir, 'dist', 'console');
      return existsSync(built) ? built : undefined;
    }
  }
  return undefined;
}

/** Every file under `root` by its path relative to it (`docs/index.html`), flat names only. */
export function loadStaticFiles(root: string | undefined): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!root) return files;
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full, `${prefix}${name}/`);
      else if (TYPES[extname(name)]) files.set(`${prefix}${name}`, { body: readFileSync(full), type: TYPES[extname(name)] });
    }
  };
  walk(root, '');
  return files;
}

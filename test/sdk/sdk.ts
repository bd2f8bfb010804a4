/**
 * Loads the client library's TypeScript source for the SDK tests.
 *
 * The source is Node ESM: its relative imports name the emitted files (`./http.js`), as Node
 * needs. ts-jest compiles it to CommonJS, where `./http.js` does not exist next to `http.ts`,
 * so each such path is registered here as a virtual module answering the `.ts` file.
 * (A `moduleNameMapper` of `^(\.{1,2}/.*)\.js$` -> `$1` in jest.config.js would do the same.)
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const SRC = join(__dirname, '..', '..', 'clients', 'typescript', 'src');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : []);
}

for (const file of tsFiles(SRC)) {
  const js = file.replace(/\.ts$/, '.js');
  jest.doMock(js, () => jest.requireActual(file), { virtual: true });
}

// After the mappings above (CommonJS keeps statement order).
export * from '../../clients/typescript/src/index';

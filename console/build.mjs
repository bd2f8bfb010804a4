// Builds the admin console and the API reference into dist/console/ (served by src/areas/console).
// Everything comes from npm and is bundled or copied here: the pages fetch nothing from a CDN.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'dist', 'console');
const require = createRequire(import.meta.url);
const swagger = dirname(require.resolve('swagger-ui-dist/package.json'));

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'docs'), { recursive: true });
await build({
  entryPoints: [join(here, 'src', 'main.ts')],
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2022',
  legalComments: 'linked',
  outfile: join(out, 'console.js'),
  logLevel: 'warning',
});
copyFileSync(join(here, 'index.html'), join(out, 'index.html'));
copyFileSync(join(here, 'console.css'), join(out, 'console.css'));
copyFileSync(join(here, 'docs', 'index.html'), join(out, 'docs', 'index.html'));
copyFileSync(join(here, 'docs', 'docs.js'), join(out, 'docs', 'docs.js'));
for (const f of ['swagger-ui-bundle.js', 'swagger-ui.css']) copyFileSync(join(swagger, f), join(out, 'docs', f));
console.log(`console built in ${out}`);

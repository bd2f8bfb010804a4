import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { startTestService } from '../support/testService';
import { AuthzClient } from './sdk';

/** The example of docs/api.md's "Client library" section runs as written against the service. */
it('runs the client library example of docs/api.md: both checks answer true', async () => {
  const t = await startTestService();
  try {
    const readme = readFileSync(join(__dirname, '..', '..', 'docs', 'api.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Client library'));
    const start = section.indexOf('```ts\n') + 6;
    const example = section
      .slice(start, section.indexOf('\n```', start))
      .replace(/^import .*$/m, '')
      .replace("'http://127.0.0.1:8080'", 'baseUrl')
      .replace('process.env.AUTHZ_KEY!', 'token')
      .replace(/^await authz\.check\((.*)\);.*$/gm, 'checks.push(await authz.check($1));');
    const js = ts.transpileModule(`(async () => {\n${example}\n})()`, { compilerOptions: { target: ts.ScriptTarget.ES2022 } }).outputText;
    const checks: boolean[] = [];
    await new Function('AuthzClient', 'baseUrl', 'token', 'checks', `return ${js}`)(AuthzClient, t.url, t.envKey, checks);
    expect(checks).toEqual([true, true]);
  } finally {
    await t.close();
  }
});

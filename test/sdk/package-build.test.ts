import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestService, type TestService } from '../support/testService';

/**
 * The package as published: `tsc -p clients/typescript` emits ESM + .d.ts, and plain Node
 * (no ts-jest, no mappings) imports it and talks to the running service.
 */
const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const PKG = join(ROOT, 'clients', 'typescript');
let t: TestService;
let out: string;

beforeAll(async () => {
  t = await startTestService();
  out = mkdtempSync(join(tmpdir(), 'authz-client-'));
});
afterAll(async () => {
  rmSync(out, { recursive: true, force: true });
  await t?.close();
});

it('builds with the root TypeScript and runs as Node ESM with no dependencies', async () => {
  const pkg = JSON.parse(readFileSync(join(PKG, 'package.json'), 'utf8'));
  expect(pkg).toMatchObject({ type: 'module', files: ['dist'], types: './dist/index.d.ts' });
  expect(pkg.exports['.']).toMatchObject({ types: './dist/index.d.ts', import: './dist/index.js' });
  expect(pkg.dependencies ?? {}).toEqual({});

  const dist = join(out, 'dist');
  await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', PKG, '--outDir', dist], { cwd: ROOT });
  expect(readFileSync(join(dist, 'index.d.ts'), 'utf8')).toContain('export declare class AuthzClient');
  writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'module' }));

  const script = `
    import { AuthzClient, NotFoundError } from ${JSON.stringify(join(dist, 'index.js'))};
    const authz = new AuthzClient({ baseUrl: process.env.URL, token: process.env.KEY });
    await authz.api.tenants.create({ key: 'esm', name: 'ESM' });
    await authz.api.tenants.addTenantUser('esm', { key: 'u' });
    await authz.api.resources.create({ key: 'doc', name: 'Doc', actions: { read: {} } });
    await authz.api.roles.create({ key: 'reader', name: 'Reader', permissions: ['doc:read'] });
    await authz.api.groups.create({ group_instance_key: 'g', group_tenant: 'esm' });
    await authz.api.groups.assignRole('g', { resource: 'doc', resource_instance: 'd', role: 'reader', tenant: 'esm' });
    await authz.api.groups.addUser('g', 'u', 'esm');
    const login = await authz.elements.loginAs({ userId: 'u', tenant: 'esm' });
    const missing = await authz.api.users.get('nobody').catch((e) => e instanceof NotFoundError && e.errorCode);
    console.log(JSON.stringify({ allowed: await authz.check('u', 'read', 'doc:d'), cookie: login.cookie.split('=')[0], missing }));
  `;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: out,
    env: { ...process.env, URL: t.url, KEY: t.envKey },
  });
  expect(JSON.parse(stdout.trim())).toEqual({ allowed: true, cookie: 'authz_session', missing: 'NOT_FOUND' });
});

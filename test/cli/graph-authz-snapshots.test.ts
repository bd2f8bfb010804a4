import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { startTestService, type TestService } from '../support/testService';

/**
 * `graph-authz export`, `import` and `copy` (docs/behaviour.md section 16) run as processes against the
 * test service (bundled from src/cli as in test/cli/graph-authz.test.ts): a snapshot written to
 * a file, restored after the environment was lost (ids kept), copied into another environment
 * of the same deployment (new ids, keys kept), a cut-off file refused; `--version`.
 */
const ROOT = join(__dirname, '..', '..');
let t: TestService;
let tmp: string;
let bin: string;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { PATH: process.env.PATH!, AUTHZ_URL: t.url }, timeout: 120_000 },
      (err, stdout, stderr) => {
        ok({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
}
const admin = () => ['--key', t.adminKey, '--project', t.proj];
const facts = (env: string) => `/v2/facts/${t.proj}/${env}`;
const schema = (env: string) => `/v2/schema/${t.proj}/${env}`;

async function fill(env: string) {
  await t.ok('POST', `${schema(env)}/resources`, { key: 'repo', name: 'Repo', actions: { pull: {}, push: {} } });
  await t.ok('POST', `${schema(env)}/resources/repo/roles`, { key: 'viewer', name: 'Viewer', permissions: ['pull'] });
  await t.ok('POST', `${schema(env)}/resources/repo/roles`, { key: 'editor', name: 'Editor', permissions: ['push'], extends: ['viewer'] });
  await t.ok('POST', `${schema(env)}/roles`, { key: 'admin', name: 'Admin', permissions: ['repo:push'] });
  await t.ok('POST', `${facts(env)}/users/bulk`, { operations: ['ann', 'ben', 'cat', 'dan'].map((key) => ({ key })) });
  await t.ok('POST', `${facts(env)}/resource_instances/bulk`, {
    operations: ['web', 'api', 'db'].map((key) => ({ key, resource: 'repo', tenant: 'default' })),
  });
  await t.ok('POST', `${schema(env)}/groups`, { group_instance_key: 'devs', group_tenant: 'default' });
  await t.ok('PUT', `${schema(env)}/groups/devs/users/ann`, { tenant: 'default' });
  await t.ok('POST', `${schema(env)}/groups/devs/roles`, { resource: 'repo', resource_instance: 'api', role: 'editor', tenant: 'default' });
  await t.ok('POST', `${facts(env)}/role_assignments`, { user: 'ben', role: 'viewer', resource_instance: 'repo:web', tenant: 'default' });
  await t.ok('POST', `${facts(env)}/role_assignments`, {
    user: 'cat',
    role: 'admin',
    tenant: 'default',
    expires_at: '2099-01-01T00:00:00Z',
  });
  await t.ok('POST', `/v2/elements/${t.proj}/${env}/config`, {
    key: 'ops',
    name: 'Ops',
    elements_type: 'operation_approval',
    settings: { resources: ['repo'] },
    roles_to_levels: { LEVEL_1: ['admin'], LEVEL_2: [], LEVEL_3: [], LEVEL_4: [] },
  });
  // A URL-mapping rule, and an invite to a resource role on an instance (it names them by id).
  await t.ok('POST', `${facts(env)}/proxy_configs`, {
    key: 'git',
    name: 'Git',
    secret: 's',
    mapping_rules: [
      { url: 'https://git\\.example\\.com/(?P<repo>\\w+)/push', url_type: 'regex', http_method: 'post', resource: 'repo', action: 'push' },
    ],
  });
  const db = await t.ok('GET', `${facts(env)}/resource_instances/repo:db`);
  const viewer = await t.ok('GET', `${schema(env)}/resources/repo/roles/viewer`);
  await t.ok('POST', `${facts(env)}/user_invites`, {
    key: 'eve',
    email: 'eve@example.com',
    role_id: viewer.id,
    tenant_id: db.tenant_id,
    resource_instance_id: db.id,
  });
}
/** /allowed_url for cat (admin: push on every repo) and dan (no role), with an environment's key. */
async function urlAnswers(key: string) {
  const out: unknown[] = [];
  for (const user of ['cat', 'dan']) {
    const body = { user, http_method: 'POST', url: 'https://git.example.com/web/push', tenant: 'default' };
    out.push((await t.call('POST', '/allowed_url', body, { key })).body.allow);
  }
  return out;
}

const QUESTIONS = [
  ['ann', 'push', 'api'],
  ['ann', 'pull', 'api'],
  ['ann', 'push', 'web'],
  ['ben', 'pull', 'web'],
  ['ben', 'push', 'web'],
  ['cat', 'push', 'db'],
  ['dan', 'pull', 'db'],
];
async function answers(env: string) {
  const out: unknown[] = [];
  for (const [user, action, key] of QUESTIONS) {
    out.push(
      (await t.ok('POST', `/v2/allowed/${t.proj}/${env}`, { user, action, resource: { type: 'repo', key, tenant: 'default' } })).allow,
    );
  }
  out.push((await t.ok('GET', `${schema(env)}/groups/devs`)).users);
  return out;
}
const userIds = async (env: string) =>
  Object.fromEntries((await t.ok('GET', `${facts(env)}/users`)).data.map((u: { key: string; id: string }) => [u.key, u.id]));

beforeAll(async () => {
  t = await startTestService();
  tmp = mkdtempSync(join(tmpdir(), 'graph-authz-snap-'));
  mkdirSync(join(tmp, 'bin'));
  copyFileSync(join(ROOT, 'bin', 'graph-authz.js'), join(tmp, 'bin', 'graph-authz.js'));
  writeFileSync(join(tmp, 'package.json'), readFileSync(join(ROOT, 'package.json')));
  await build({
    entryPoints: [join(ROOT, 'src', 'cli', 'main.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile: join(tmp, 'dist', 'src', 'cli', 'main.js'),
    logLevel: 'silent',
  });
  bin = join(tmp, 'bin', 'graph-authz.js');
  await fill(t.env);
}, 120_000);
afterAll(async () => {
  await t?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('graph-authz export / import / copy', () => {
  it('prints its version', async () => {
    const run = await cli(['--version']);
    expect({ code: run.code, out: run.stdout.trim() }).toEqual({
      code: 0,
      out: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version,
    });
  });

  it('copies an environment into an empty one of the same deployment: new ids, same answers, keys kept', async () => {
    await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: 'copy', name: 'copy' });
    const { secret } = await t.ok('POST', `/v2/api-key/${t.proj}/copy`, {});
    const run = await cli(['copy', ...admin(), '--from-env', t.env, '--to-env', 'copy']);
    expect({ code: run.code, stderr: run.stderr.trim().split('\n').pop() }).toEqual({
      code: 0,
      stderr: expect.stringMatching(/^graph-authz: copy: [\d,]+ lines/),
    });
    expect(run.stdout).toMatch(/^Copied \d+ records and \d+ links from test to copy/);
    expect(await answers('copy')).toEqual(await answers(t.env));
    expect(await urlAnswers(secret)).toEqual([true, false]);
    expect(await urlAnswers(t.envKey)).toEqual([true, false]);
    const [from, to] = [await userIds(t.env), await userIds('copy')];
    expect(Object.keys(to).sort()).toEqual(Object.keys(from).sort());
    for (const key of Object.keys(from)) expect(to[key]).not.toBe(from[key]);
    // Both environments' keys still work.
    for (const [env, key] of [
      ['copy', secret],
      [t.env, t.envKey],
    ]) {
      const res = await t.call(
        'POST',
        `/v2/allowed/${t.proj}/${env}`,
        { user: 'ann', action: 'push', resource: { type: 'repo', key: 'api', tenant: 'default' } },
        { key },
      );
      expect({ status: res.status, allow: res.body.allow }).toEqual({ status: 200, allow: true });
    }
    // The invite names the copy's own role, tenant and instance (new ids): redeemed there, it gives eve viewer on db.
    const [invite] = (await t.ok('GET', `${facts('copy')}/user_invites`)).data;
    const [original] = (await t.ok('GET', `${facts(t.env)}/user_invites`)).data;
    expect(invite.id).not.toBe(original.id);
    expect(invite.resource_instance_id).toBe((await t.ok('GET', `${facts('copy')}/resource_instances/repo:db`)).id);
    const eve = await t.ok('POST', `${facts('copy')}/user_invites/${invite.id}/approve`, { email: 'eve@example.com', key: 'eve' });
    expect(eve.key).toBe('eve');
    const check = { user: 'eve', action: 'pull', resource: { type: 'repo', key: 'db', tenant: 'default' } };
    expect((await t.ok('POST', `/v2/allowed/${t.proj}/copy`, check)).allow).toBe(true);
  }, 60_000);

  it('exports to a file, refuses a cut-off file (exit 1, environment left empty), and restores the lost environment with its ids', async () => {
    const file = join(tmp, 'backup.ndjson');
    const exported = await cli(['export', ...admin(), '--env', t.env, '-o', file]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/^Exported \d+ records and \d+ links to /);
    expect(exported.stderr).toMatch(/graph-authz: export: [\d,]+ lines/);
    const text = readFileSync(file, 'utf8');
    expect(JSON.parse(text.trim().split('\n').pop()!)).toMatchObject({ type: 'end' });
    expect(text).not.toContain(t.envKey);

    const before = { answers: await answers(t.env), ids: await userIds(t.env) };
    await t.ok('DELETE', `/v2/projects/${t.proj}/envs/${t.env}`, undefined, 204);
    await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: 'restored', name: 'restored' });

    const half = join(tmp, 'half.ndjson');
    writeFileSync(half, text.slice(0, Math.floor(text.length / 2)));
    const cut = await cli(['import', ...admin(), '--env', 'restored', half]);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/400/);
    expect((await t.ok('GET', `${facts('restored')}/users`)).data).toEqual([]);

    const run = await cli(['import', ...admin(), '--env', 'restored', '--json', file]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ nodes: expect.any(Number), relationships: expect.any(Number) });
    expect(await answers('restored')).toEqual(before.answers);
    expect(await userIds('restored')).toEqual(before.ids);

    // Into an environment that holds facts: refused (exit 1), nothing changed.
    const again = await cli(['import', ...admin(), '--env', 'restored', file]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('INVALID_STATE');
  }, 60_000);
});

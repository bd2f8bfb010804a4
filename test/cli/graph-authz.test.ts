import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { startTestService, type TestService } from '../support/testService';

/**
 * The `graph-authz` command (docs/behaviour.md section 16) run as a process against the test service:
 * the project's test files (test/policy/*.test.yaml, converted from test/scenarios) are its
 * acceptance test. The command is bundled from src/cli with esbuild into a temporary
 * dist/src/cli/main.js next to a copy of bin/graph-authz.js, so the shim runs as in a checkout.
 */
const ROOT = join(__dirname, '..', '..');
const POLICY_DIR = join(ROOT, 'test', 'policy');
let t: TestService;
let tmp: string;
let bin: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((ok) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env: { PATH: process.env.PATH!, AUTHZ_URL: t.url, ...env }, timeout: 420_000 },
      (err, stdout, stderr) => {
        ok({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
      },
    );
  });
}
const admin = () => ['--key', t.adminKey, '--project', t.proj];

beforeAll(async () => {
  t = await startTestService();
  tmp = mkdtempSync(join(tmpdir(), 'graph-authz-cli-'));
  mkdirSync(join(tmp, 'bin'));
  copyFileSync(join(ROOT, 'bin', 'graph-authz.js'), join(tmp, 'bin', 'graph-authz.js'));
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
});
afterAll(async () => {
  await t?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const envKeysOf = async () => ((await t.ok('GET', `/v2/projects/${t.proj}/envs`)) as { key: string }[]).map((e) => e.key).sort();

describe('graph-authz test', () => {
  it('passes every test file of the project, each in a throwaway environment it deletes again', async () => {
    const files = readdirSync(POLICY_DIR)
      .filter((f) => f.endsWith('.test.yaml'))
      .sort()
      .map((f) => join(POLICY_DIR, f));
    expect(files.length).toBeGreaterThanOrEqual(13);
    const envsBefore = await envKeysOf();
    const run = await cli(['test', ...admin(), '--cross-check', '--parallel', '3', ...files]);
    expect({
      code: run.code,
      stderr: run.stderr
        .split('\n')
        .filter((l) => !/ done$/.test(l))
        .join('\n'),
      tail: run.stdout.trim().split('\n').pop(),
    }).toEqual({ code: 0, stderr: '', tail: expect.stringMatching(/^\d+ passed, 0 failed$/) });
    expect(run.stdout).toContain(`ok   ${join(POLICY_DIR, 'seed-groups.test.yaml')}`);
    expect(await envKeysOf()).toEqual(envsBefore);
    // Every file of the project, three at a time: minutes on a busy 2-core box (170 s ran out once at load 13).
  }, 450_000);

  it('exits 1 on a wrong assertion, naming it with the answer it got', async () => {
    const run = await cli(['test', ...admin(), join(POLICY_DIR, 'fixtures', 'wrong-assertion.test.yaml')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('step 7: check alice push repo:web-that-is-not-there: expected "allowed", got "denied"');
    expect(run.stdout.trim().split('\n').pop()).toBe('6 passed, 1 failed');
    const json = await cli(['test', ...admin(), '--json', join(POLICY_DIR, 'fixtures', 'wrong-assertion.test.yaml')]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      passed: 6,
      failed: 1,
      files: [{ failures: [{ step: 7, expected: 'allowed', got: 'denied' }] }],
    });
  });

  it('runs in an existing empty environment with its write key (--env) and leaves it empty; refuses one that is not empty (exit 2)', async () => {
    await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: 'shared', name: 'shared' });
    const { secret } = await t.ok('POST', `/v2/api-key/${t.proj}/shared`, { access_level: 'write' });
    const run = await cli(['test', '--key', secret, '--env', 'shared', join(POLICY_DIR, 'seed-groups.test.yaml')]);
    expect({ code: run.code, tail: run.stdout.trim().split('\n').pop() }).toEqual({
      code: 0,
      tail: expect.stringMatching(/^\d+ passed, 0 failed$/),
    });
    const s = `/v2/schema/${t.proj}/shared`;
    const f = `/v2/facts/${t.proj}/shared`;
    expect(await t.ok('GET', `${s}/resources`)).toEqual([]);
    expect(await t.ok('GET', `${s}/roles`)).toEqual([]);
    expect((await t.ok('GET', `${s}/groups`)).data).toEqual([]);
    expect((await t.ok('GET', `${f}/users`)).data).toEqual([]);
    expect((await t.ok('GET', `${f}/tenants`)).map((x: { key: string }) => x.key)).toEqual(['default']);

    await t.ok('POST', `${f}/users`, { key: 'someone' });
    const refused = await cli(['test', '--key', secret, '--env', 'shared', join(POLICY_DIR, 'seed-groups.test.yaml')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('environment shared is not empty (1 users)');
  }, 120_000);
});

describe('graph-authz plan / apply / export', () => {
  const policy = join(POLICY_DIR, 'seed-groups.policy.yaml');
  const env = () => ['--key', t.adminKey, '--project', t.proj, '--env', 'planned'];

  it('shows no difference after apply of the same file, even with group grants and elements configs in the environment', async () => {
    await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: 'planned', name: 'planned' });
    const first = await cli(['plan', ...env(), policy]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('+ resource repo');
    expect(first.stdout).toContain('+ tenant role editor');
    expect((await cli(['plan', ...env(), '--exit-code', policy])).code).toBe(1);
    const applied = await cli(['apply', ...env(), policy]);
    expect({ code: applied.code, last: applied.stdout.trim().split('\n').pop() }).toEqual({
      code: 0,
      last: 'Applied: 3 created, 0 updated, 0 deleted.',
    });

    const s = `/v2/schema/${t.proj}/planned`;
    await t.ok('POST', `${s}/groups`, { group_instance_key: 'eng', group_tenant: 'default' });
    await t.ok('POST', `${s}/groups`, { group_instance_key: 'all', group_tenant: 'default' });
    await t.ok('PUT', `${s}/groups/eng/assign_group`, { group_instance_key: 'all' });
    await t.ok('POST', `${s}/group/eng/roles`, { resource: 'repo', resource_instance: 'api', role: 'editor', tenant: 'default' });
    await t.ok('POST', `/v2/elements/${t.proj}/planned/config`, {
      key: 'deploys',
      name: 'Deploys',
      elements_type: 'operation_approval',
      settings: { resources: ['repo'] },
      roles_to_levels: { LEVEL_1: ['editor'], LEVEL_2: [], LEVEL_3: [], LEVEL_4: [] },
    });
    const again = await cli(['plan', ...env(), '--exit-code', policy]);
    expect({ code: again.code, out: again.stdout.trim() }).toEqual({
      code: 0,
      out: "No changes: the environment's schema equals the file.",
    });
    const json = await cli(['plan', ...env(), '--json', policy]);
    expect(JSON.parse(json.stdout)).toEqual({ changed: false, applied: false, changes: [] });
    expect((await cli(['apply', ...env(), policy])).stdout.trim()).toBe("No changes: the environment's schema equals the file.");

    const exported = await cli(['export', ...env(), '--policy']);
    expect(exported.code).toBe(0);
    expect(exported.stdout).not.toMatch(/operate|_Approved_|member|_group/);
    const out = join(tmp, 'exported.yaml');
    writeFileSync(out, exported.stdout);
    expect((await cli(['plan', ...env(), '--exit-code', out])).code).toBe(0);
  }, 120_000);

  it('plans, applies and exports elements configs; after apply the plan shows no difference, with group grants there', async () => {
    const approvals = join(POLICY_DIR, 'seed-approvals.policy.yaml');
    const ec = () => ['--key', t.adminKey, '--project', t.proj, '--env', 'planned-ec'];
    await t.ok('POST', `/v2/projects/${t.proj}/envs`, { key: 'planned-ec', name: 'planned-ec' });
    const first = await cli(['plan', ...ec(), approvals]);
    expect(first.stdout).toContain('+ elements config deploys');
    const applied = await cli(['apply', ...ec(), approvals]);
    expect({ code: applied.code, last: applied.stdout.trim().split('\n').pop() }).toEqual({
      code: 0,
      last: 'Applied: 4 created, 0 updated, 0 deleted.',
    });
    const config = await t.ok('GET', `/v2/elements/${t.proj}/planned-ec/config/deploys`);
    expect(config).toMatchObject({ elements_type: 'operation_approval', settings: { resources: ['repo'] } });
    expect(config.roles_to_levels.LEVEL_1).toEqual(['approver']);

    // Group grants, also of the managed _Reviewer_ role.
    const s = `/v2/schema/${t.proj}/planned-ec`;
    await t.ok('POST', `${s}/groups`, { group_instance_key: 'eng', group_tenant: 'default' });
    await t.ok('POST', `${s}/group/eng/roles`, { resource: 'repo', resource_instance: 'api', role: 'editor', tenant: 'default' });
    await t.ok('POST', `${s}/group/eng/roles`, { resource: 'repo', resource_instance: 'api', role: '_Reviewer_', tenant: 'default' });
    const again = await cli(['plan', ...ec(), '--exit-code', approvals]);
    expect({ code: again.code, out: again.stdout.trim() }).toEqual({
      code: 0,
      out: "No changes: the environment's schema equals the file.",
    });
    expect((await cli(['apply', ...ec(), approvals])).stdout.trim()).toBe("No changes: the environment's schema equals the file.");

    const exported = await cli(['export', ...ec(), '--policy']);
    expect(exported.stdout).toContain('elements_configs:');
    expect(exported.stdout).not.toMatch(/operate|_Approved_|_Reviewer_|member|_group|webhook/);
    const out = join(tmp, 'exported-ec.yaml');
    writeFileSync(out, exported.stdout);
    expect((await cli(['plan', ...ec(), '--exit-code', out])).code).toBe(0);

    // A file that drops the config: the plan names it, apply removes it with the approval schema.
    const dropped = join(tmp, 'dropped-ec.yaml');
    writeFileSync(dropped, exported.stdout.replace(/elements_configs:[\s\S]*$/, 'elements_configs: {}\n'));
    expect((await cli(['plan', ...ec(), dropped])).stdout).toContain('- elements config deploys');
  }, 120_000);

  it('exits 1 on a refused change and 2 on bad usage', async () => {
    const f = `/v2/facts/${t.proj}/planned`;
    await t.ok('POST', `${f}/users`, { key: 'ann' });
    await t.ok('POST', `${f}/role_assignments`, { user: 'ann', role: 'viewer', tenant: 'default' });
    const smaller = join(tmp, 'smaller.yaml');
    writeFileSync(
      smaller,
      'resources:\n  repo:\n    actions: [push, pull]\nroles:\n  editor:\n    name: Editor\n    permissions: ["repo:push", "repo:pull"]\n',
    );
    const refused = await cli(['apply', ...env(), smaller]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('tenant role "viewer" is used by 1 role assignments');
    const planned = await cli(['plan', ...env(), smaller]);
    expect(planned.stdout).toContain('- tenant role viewer  [used by 1 role assignments: removed with it only by --prune]');

    expect((await cli(['plan', '--project', t.proj, '--env', 'planned', policy])).code).toBe(2); // no key
    expect((await cli(['plan', ...env(), join(tmp, 'missing.yaml')])).code).toBe(2);
    expect((await cli(['plan', ...env(), policy], { AUTHZ_URL: 'http://127.0.0.1:9' })).code).toBe(2);
    expect((await cli(['plan', '--key', 'wrong', '--project', t.proj, '--env', 'planned', policy])).code).toBe(2);
    expect((await cli(['frobnicate'])).code).toBe(2);
    expect((await cli(['apply', '--help'])).code).toBe(0);
  }, 60_000);

  it('answers a quick question (check, explain)', async () => {
    const s = `/v2/schema/${t.proj}/planned`;
    await t.ok('PUT', `${s}/groups/eng/users/ann`, { tenant: 'default' });
    const check = await cli(['check', ...env(), 'ann', 'push', 'repo:api']);
    expect({ code: check.code, out: check.stdout.trim() }).toEqual({ code: 0, out: 'allowed: ann push repo:api' });
    const explain = await cli(['explain', ...env(), 'ann', 'push', 'repo:api']);
    expect(explain.stdout).toContain('group:eng');
    expect(JSON.parse((await cli(['check', ...env(), '--json', 'ann', 'push', 'repo:web'])).stdout)).toEqual({ allow: false });
  }, 60_000);

  it('previews what writes would take away (impact), keeping nothing; --exit-code exits 1 when something would be lost', async () => {
    const writes = join(tmp, 'writes.yaml');
    writeFileSync(writes, '- { op: remove_member, group: eng, user: ann }\n');
    const run = await cli(['impact', ...env(), '--exit-code', '--deadline-ms', '30000', writes]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('ann push repo:api (tenant default)');
    expect(run.stdout.trim().split('\n').pop()).toMatch(/^\d+ access\(es\) would be lost\.$/);
    // Nothing was written: ann still may.
    expect((await cli(['check', ...env(), 'ann', 'push', 'repo:api'])).code).toBe(0);
    // A write the service refuses: its message, exit 1.
    writeFileSync(writes, '{ writes: [{ op: unassign_role, user: ann }] }\n');
    const refused = await cli(['impact', ...env(), writes]);
    expect({ code: refused.code, said: refused.stderr.includes('"role"') }).toEqual({ code: 1, said: true });
  }, 60_000);
});

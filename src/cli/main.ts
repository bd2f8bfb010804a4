import { Command, CommanderError, Option } from 'commander';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { Api, CliError, resolveTarget } from './api';
import { Environments } from './environment';
import { readDataFile } from './files';
import { printPlan } from './output';
import { copyBetween, exportTo, importFrom } from './snapshot';
import { type FileResult, runTestFile } from './testFile';

/**
 * `graph-authz`: policy as code, tests as files, export and import (docs/behaviour.md section 16).
 * Talks to a deployment over its HTTP API. Exit codes: 0 success, 1 a failed assertion or a
 * refused change, 2 bad usage (unknown command or option, unreadable file, unreachable service,
 * a key the service does not accept).
 */
interface Globals {
  url: string;
  key?: string;
  project?: string;
  env?: string;
  json?: boolean;
}

const out = (line: string): void => void process.stdout.write(`${line}\n`);
const note = (line: string): void => void process.stderr.write(`${line}\n`);

function connect(g: Globals): Api {
  // GRAPH_AUTHZ_KEY is read here, not as an option default, so that --help never prints a secret.
  const key = g.key ?? process.env.GRAPH_AUTHZ_KEY;
  if (!key) throw new CliError('no API key: pass --key or set AUTHZ_KEY (or GRAPH_AUTHZ_KEY)', 2);
  return new Api(g.url, key);
}

async function target(g: Globals) {
  const api = connect(g);
  const { project, env } = await resolveTarget(api, g.project, g.env);
  const base = (area: string) => `/v2/${area}/${encodeURIComponent(project)}/${encodeURIComponent(env)}`;
  return { api, project, env, base };
}

/** The package's version (package.json, found above the compiled or the source file). */
function packageVersion(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return 'unknown';
}

export function program(): Command {
  const p = new Command('graph-authz')
    .description('Policy as code for graph-authz: plan and apply policy files, run test files, ask quick questions.')
    .addOption(new Option('--url <url>', 'the service').env('AUTHZ_URL').default(process.env.GRAPH_AUTHZ_URL ?? 'http://localhost:8080'))
    .addOption(new Option('--key <key>', 'API key (environment key, or the admin key with --project and --env)').env('AUTHZ_KEY'))
    .option('--project <project>', "project key or id (default: the environment key's)")
    .option('--env <env>', "environment key or id (default: the environment key's)")
    .option('--json', 'machine-readable output')
    .version(packageVersion(), '-V, --version', 'the version of graph-authz')
    .showHelpAfterError()
    .exitOverride();
  const globals = (cmd: Command) => cmd.optsWithGlobals() as Globals & Record<string, unknown>;

  p.command('plan')
    .description("Show what `apply FILE` would change in the environment's schema (managed schema is never shown).")
    .argument('<file>', 'policy file (YAML or JSON)')
    .option('--exit-code', 'exit 1 when the environment differs from the file (for drift checks in CI)')
    .action(async (file: string, _o: unknown, cmd: Command) => {
      const g = globals(cmd);
      const { api, base } = await target(g);
      const plan = await api.ok('POST', `${base('schema')}/policy/plan`, readDataFile(file));
      if (g.json) out(JSON.stringify(plan));
      else printPlan(plan, out, false);
      if (g.exitCode && plan.changed) process.exitCode = 1;
    });

  p.command('apply')
    .description(
      "Make the environment's schema equal to FILE, in one transaction. Removing schema that facts use is refused unless --prune.",
    )
    .argument('<file>', 'policy file (YAML or JSON)')
    .option('--prune', 'also remove schema that facts still use, with those facts')
    .option('--dry-run', 'only show the plan')
    .action(async (file: string, _o: unknown, cmd: Command) => {
      const g = globals(cmd);
      const { api, base } = await target(g);
      const query = [g.prune ? 'prune=true' : '', g.dryRun ? 'dry_run=true' : ''].filter(Boolean).join('&');
      const answer = await api.ok('PUT', `${base('schema')}/policy${query ? `?${query}` : ''}`, readDataFile(file));
      if (g.json) out(JSON.stringify(answer));
      else printPlan(answer, out, true);
    });

  p.command('export')
    .description(
      "Write the environment's snapshot (JSON lines: schema, tenants, users, instances, tuples, role assignments, groups, elements configs, approvals; never keys or secrets; admin key), or with --policy its policy file.",
    )
    .option('--policy', "only the environment's own schema, as a policy file (YAML; --json for JSON)")
    .option('-o, --out <file>', 'write to this file instead of standard output')
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      const { api, base } = await target(g);
      if (!g.policy) {
        const file = typeof g.out === 'string' ? g.out : undefined;
        const done = await exportTo(api, base('export'), file, g.json === true);
        // The snapshot goes to standard output when no file is named: the summary then goes to stderr.
        const say = file ? out : note;
        if (g.json) say(JSON.stringify(done));
        else if (file) say(`Exported ${done.nodes} records and ${done.relationships} links to ${file} in ${done.seconds.toFixed(1)} s.`);
        return;
      }
      const policy = await api.ok('GET', `${base('schema')}/policy`);
      const text = g.json ? JSON.stringify(policy, null, 2) : stringify(policy);
      if (typeof g.out === 'string') writeFileSync(g.out, text.endsWith('\n') ? text : `${text}\n`);
      else process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    });

  p.command('import')
    .description('Load a snapshot written by `export` into an empty environment, all or nothing (ids kept: a restore; admin key).')
    .argument('<file>', 'the snapshot (JSON lines)')
    .action(async (file: string, _o: unknown, cmd: Command) => {
      const g = globals(cmd);
      const { api, base } = await target(g);
      const answer = await importFrom(api, base('import'), file, g.json === true);
      if (g.json) out(JSON.stringify(answer));
      else out(`Imported ${answer.nodes} records and ${answer.relationships} links in ${answer.seconds.toFixed(1)} s.`);
    });

  p.command('copy')
    .description(
      'Copy an environment into another, empty one of the same deployment (--project), streamed: same records with new ids; keys stay (admin key).',
    )
    .requiredOption('--from-env <env>', 'the environment copied (key or id)')
    .requiredOption('--to-env <env>', 'the empty environment it is copied into (key or id)')
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      const api = connect(g);
      const { project } = await resolveTarget(api, g.project, g.fromEnv as string);
      const path = (area: string, env: string) => `/v2/${area}/${encodeURIComponent(project)}/${encodeURIComponent(env)}`;
      const answer = await copyBetween(api, path('export', g.fromEnv as string), path('import', g.toEnv as string), g.json === true);
      if (g.json) out(JSON.stringify(answer));
      else
        out(
          `Copied ${answer.nodes} records and ${answer.relationships} links from ${g.fromEnv} to ${g.toEnv} in ${answer.seconds.toFixed(1)} s.`,
        );
    });

  p.command('impact')
    .description(
      'Show what intended writes would take away: every (user, action, object) allowed now and denied after, by any path; nothing is written (POST /v2/impact).',
    )
    .argument('<file>', 'the writes (YAML or JSON): a list of {op, ...}, or {writes, deadline_ms, limit}')
    .option('--deadline-ms <ms>', 'answer within this long, cut if need be (default 5000)')
    .option('--limit <n>', 'list at most this many (all are counted; default 1000)')
    .option('--exit-code', 'exit 1 when anything would be lost (for checks in CI)')
    .action(async (file: string, _o: unknown, cmd: Command) => {
      const g = globals(cmd);
      const { api, base } = await target(g);
      const data = readDataFile(file);
      const body: Record<string, unknown> = Array.isArray(data) ? { writes: data } : { ...(data as Record<string, unknown>) };
      if (g.deadlineMs !== undefined) body.deadline_ms = Number(g.deadlineMs);
      if (g.limit !== undefined) body.limit = Number(g.limit);
      const answer = await api.ok('POST', base('impact'), body);
      if (g.json) out(JSON.stringify(answer));
      else {
        for (const l of answer.lost as { user: string; action: string; object: string; tenant: string }[])
          out(`${l.user} ${l.action} ${l.object} (tenant ${l.tenant})`);
        out(`${answer.count} access(es) would be lost${answer.cut ? ' (cut at the deadline: at least this many)' : ''}.`);
      }
      if (g.exitCode && answer.count > 0) process.exitCode = 1;
    });

  p.command('test')
    .description(
      'Run test files: each in a throwaway environment (admin key, --project), or in the existing empty environment --env (left empty again).',
    )
    .argument('<files...>', 'test files (YAML or JSON)')
    .option('--cross-check', 'also ask every instance check through bulk, user-permissions and authorized users')
    .option('--default-tenant <key>', 'the tenant a new environment has', 'default')
    .option('--parallel <n>', 'files run at once in throwaway environments', '4')
    .action(async (files: string[], _o: unknown, cmd: Command) => {
      const g = globals(cmd);
      const api = connect(g);
      const tenant = g.defaultTenant as string;
      let project = g.project;
      if (!project || !g.env) {
        const scope = await api.ok<{ project_id: string | null; environment_id: string | null }>('GET', '/v2/api-key/scope');
        project ??= scope.project_id ?? undefined;
        if (!project) throw new CliError('with the admin key, pass --project (test environments are made in it)', 2);
        if (scope.environment_id && !g.env)
          throw new CliError('an environment key cannot make environments: pass --env with an empty environment of the key', 2);
      }
      const envs = new Environments(api, project);
      const runOne = async (file: string): Promise<FileResult> => {
        const shared = g.env;
        if (shared) {
          const found = await envs.contents(shared, tenant);
          if (found.length) throw new CliError(`environment ${shared} is not empty (${found.join(', ')}): tests need an empty one`, 2);
        }
        const env = shared ?? (await envs.createThrowaway(basename(file).replace(/\.(ya?ml|json)$/, '')));
        try {
          return await runTestFile(api, file, project, env, { crossCheck: g.crossCheck === true });
        } finally {
          if (shared) await envs.empty(shared, tenant);
          else await envs.deleteEnv(env);
        }
      };
      // Throwaway environments run side by side; one shared environment runs one file at a time.
      const width = g.env ? 1 : Math.max(1, Number(g.parallel) || 1);
      const results: FileResult[] = new Array(files.length);
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(width, files.length) }, async () => {
          while (next < files.length) {
            const i = next++;
            results[i] = await runOne(files[i]);
            if (!g.json && files.length > 1) note(`graph-authz: ${i + 1}/${files.length} ${files[i]} done`);
          }
        }),
      );
      const passed = results.reduce((n, r) => n + r.passed, 0);
      const failed = results.reduce((n, r) => n + r.failed, 0);
      if (g.json) out(JSON.stringify({ passed, failed, files: results }));
      else {
        for (const r of results) {
          out(`${r.failed ? 'FAIL' : 'ok  '} ${r.file} (${r.passed} passed${r.failed ? `, ${r.failed} failed` : ''})`);
          for (const f of r.failures)
            out(`  step ${f.step}: ${f.what}: expected ${JSON.stringify(f.expected)}, got ${JSON.stringify(f.got)}`);
        }
        out(`${passed} passed, ${failed} failed`);
      }
      if (failed) process.exitCode = 1;
    });

  const question = (name: string, explain: boolean) =>
    p
      .command(name)
      .description(
        explain
          ? 'Why a user may (or may not) do an action on a resource: every granting path.'
          : 'May USER do ACTION on RESOURCE ("type:key", or "type" with --tenant)?',
      )
      .argument('<user>')
      .argument('<action>')
      .argument('<resource>', '"type:key", or "type"')
      .option('--tenant <tenant>', 'the tenant (a check on a resource type)')
      .action(async (user: string, action: string, resource: string, _o: unknown, cmd: Command) => {
        const g = globals(cmd);
        const { api, base } = await target(g);
        const at = resource.indexOf(':');
        const res = {
          type: at < 0 ? resource : resource.slice(0, at),
          ...(at < 0 ? {} : { key: resource.slice(at + 1) }),
          ...(g.tenant ? { tenant: g.tenant } : {}),
        };
        const answer = await api.ok('POST', base('allowed'), { user, action, resource: res, ...(explain ? { explain: true } : {}) });
        if (g.json) return out(JSON.stringify(answer));
        out(`${answer.allow ? 'allowed' : 'denied'}: ${user} ${action} ${resource}`);
        if (explain) {
          for (const path of answer.explanation?.paths ?? []) out(`  ${path}`);
          if (answer.explanation?.reason) out(`  ${answer.explanation.reason}`);
        }
      });
  question('check', false);
  question('explain', true);
  return p;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await program().parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof CliError) {
      note(`graph-authz: ${err.message}`);
      return err.exitCode;
    }
    note(`graph-authz: ${(err as Error).stack ?? String(err)}`);
    return 2;
  }
}

if (require.main === module) {
  void main(process.argv).then((code) => {
    process.exitCode = code;
  });
}

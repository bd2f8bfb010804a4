import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Runs test/permit-python/driver.py with the venv's Python and reads its JSON lines. */
const ROOT = resolve(__dirname, '../..');
export const PYTHON = join(ROOT, '.venv-permit', 'bin', 'python');
const DRIVER = join(__dirname, 'driver.py');

export interface DriverLine {
  area: string;
  call: string;
  ok: boolean;
  error?: string;
}

export interface DriverRun {
  /** Every SDK method the installed package has (permit.api.*, elements, PDP calls). */
  surface: string[];
  lines: DriverLine[];
  /** Set when the driver did not reach its end (a crash, a timeout): what it printed on stderr. */
  problem?: string;
}

/** Why the Python SDK cannot run here, or undefined. */
export function venvProblem(): string | undefined {
  if (existsSync(PYTHON)) return undefined;
  return (
    `The Python SDK's venv is missing (${PYTHON}): run \`bash scripts/setup.sh\` (it runs ` +
    '`python3 -m venv .venv-permit && .venv-permit/bin/pip install -r test/permit-python/requirements.txt`).'
  );
}

export async function runDriver(opts: {
  url: string;
  envToken: string;
  orgToken?: string;
  mode: 'full' | 'read';
  project?: string;
  env?: string;
}): Promise<DriverRun> {
  const child = spawn(PYTHON, [DRIVER], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      PERMIT_URL: opts.url,
      PERMIT_ENV_TOKEN: opts.envToken,
      PERMIT_ORG_TOKEN: opts.orgToken ?? '',
      PERMIT_PROJECT: opts.project ?? '',
      PERMIT_ENV: opts.env ?? '',
      DRIVER_MODE: opts.mode,
      // The SDK logs through loguru on stderr; only errors, so that a failure's log stays readable.
      LOGURU_LEVEL: 'ERROR',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err = (err + d).slice(-20_000)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
  const code = await new Promise<number | null>((ok) => child.once('close', (c) => ok(c)));
  clearTimeout(timer);

  const run: DriverRun = { surface: [], lines: [] };
  let done = false;
  for (const text of out.split('\n')) {
    if (!text.trim()) continue;
    const line = JSON.parse(text);
    if (line.surface) run.surface = line.surface;
    else if (line.done) done = true;
    else run.lines.push(line as DriverLine);
  }
  if (code !== 0 || !done) run.problem = `driver.py exited with ${code}${done ? '' : ' before its end'}:\n${err}`;
  return run;
}

/** "call: error" for each failed call, in the order they were made. */
export const failuresOf = (lines: DriverLine[]): string[] => lines.filter((l) => !l.ok).map((l) => `${l.call}: ${l.error}`);

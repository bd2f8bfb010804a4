import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BrowserContext, chromium } from 'playwright-core';
import type { TestService } from '../support/testService';

export const CHROMIUM = '/usr/bin/chromium';
export const RESULTS = resolve(__dirname, '..', '..', 'test-results');
const ROOT = resolve(__dirname, '..', '..');

const hasApt = () => {
  try {
    execFileSync('apt-get', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/**
 * Why the browser tests cannot run here, or null when they can. Only a machine without apt may
 * lack Debian's chromium; where apt exists a missing browser is a failure (.ci/run installs it).
 */
export function browserUnavailable(): string | null {
  if (existsSync(CHROMIUM)) return null;
  if (hasApt()) throw new Error(`${CHROMIUM} is missing: run "apt-get install -y chromium" (.ci/run does).`);
  return `SKIPPED the console browser tests: ${CHROMIUM} is missing and apt-get is not available on this machine to install Debian's chromium.`;
}

/** Builds the console from its sources, so the test serves what the commit holds. */
export function buildConsole(): void {
  execFileSync(process.execPath, [join(ROOT, 'console', 'build.mjs')], { stdio: 'ignore' });
  mkdirSync(RESULTS, { recursive: true });
}

/** Debian's chromium, headless, with a fresh profile (playwright passes it as --user-data-dir). */
export async function launchChromium(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'console-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, viewport: { width: 1500, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  return { context, close: async () => { await context.close(); rmSync(profile, { recursive: true, force: true }); } };
}

type Step = [method: string, path: string, body?: unknown, status?: number | null];

/** Runs a scenario file's graph changes (test/scenarios/*.json) in the service's own environment. */
export async function loadScenario(t: TestService, env: string, file: string): Promise<void> {
  const scenario = JSON.parse(readFileSync(join(ROOT, 'test', 'scenarios', file), 'utf8')) as { phases: { do: Step[] }[] };
  for (const phase of scenario.phases) {
    for (const [method, path, body] of phase.do) {
      const [area, ...rest] = path.split('/');
      await t.ok(method, `/v2/${area}/${t.proj}/${env}/${rest.join('/')}`, body ?? undefined);
    }
  }
}

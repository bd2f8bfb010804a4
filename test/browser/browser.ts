import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import type { TestService } from '../support/testService';
const { findBrowser } = require('../../scripts/browser-path.cjs') as { findBrowser: () => string | null };

export const RESULTS = resolve(__dirname, '..', '..', 'test-results');
const ROOT = resolve(__dirname, '..', '..');

/**
 * The Chromium or Chrome to drive (CHROMIUM_PATH, else one found on the machine). None is a
 * failure, never a skip: `npm test` runs scripts/setup.sh first, which installs Debian's chromium
 * where it can and otherwise stops the run with a message saying how to get one.
 */
export function browserPath(): string {
  const found = findBrowser();
  if (found) return found;
  throw new Error(
    'No Chromium or Chrome found for the console tests: run "bash scripts/setup.sh" (npm test does), ' +
      'or install one and set CHROMIUM_PATH to its binary.',
  );
}

/** Builds the console from its sources, so the test serves what the commit holds. */
export function buildConsole(): void {
  execFileSync(process.execPath, [join(ROOT, 'console', 'build.mjs')], { stdio: 'ignore' });
  mkdirSync(RESULTS, { recursive: true });
}

/** The machine's Chromium, headless, with a fresh profile (playwright passes it as --user-data-dir). */
export async function launchChromium(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'console-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: browserPath(),
    headless: true,
    viewport: { width: 1500, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
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

import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The lookup scripts/setup.sh and the browser tests share (scripts/browser-path.cjs).
const { findBrowser } = require('../../scripts/browser-path.cjs') as { findBrowser: (env: NodeJS.ProcessEnv) => string | null };

describe('finding a Chromium or Chrome for the browser tests', () => {
  let dir: string;
  const fakeBrowser = (path: string) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, '#!/bin/sh\n');
    chmodSync(path, 0o755);
    return path;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'browser-path-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses CHROMIUM_PATH when it names an executable', () => {
    const own = fakeBrowser(join(dir, 'my', 'chrome'));
    expect(findBrowser({ CHROMIUM_PATH: own, PATH: '' })).toBe(own);
  });

  it('refuses a CHROMIUM_PATH that is not an executable file instead of quietly using another browser', () => {
    writeFileSync(join(dir, 'plain'), 'not a program');
    expect(() => findBrowser({ CHROMIUM_PATH: join(dir, 'plain'), PATH: '' })).toThrow(/CHROMIUM_PATH=.*plain is not an executable/);
    expect(() => findBrowser({ CHROMIUM_PATH: join(dir, 'missing'), PATH: '' })).toThrow(/not an executable/);
  });

  it('finds google-chrome or chromium-browser on PATH, in PATH order', () => {
    const first = fakeBrowser(join(dir, 'a', 'google-chrome'));
    fakeBrowser(join(dir, 'b', 'chromium'));
    expect(findBrowser({ PATH: `${join(dir, 'a')}:${join(dir, 'b')}` })).toBe(first);
    const browser = fakeBrowser(join(dir, 'c', 'chromium-browser'));
    expect(findBrowser({ PATH: join(dir, 'c') })).toBe(browser);
  });

  it('does not take a non-executable file of that name on PATH', () => {
    mkdirSync(join(dir, 'd'));
    writeFileSync(join(dir, 'd', 'chromium'), '');
    const found = findBrowser({ PATH: join(dir, 'd') });
    expect(found).not.toBe(join(dir, 'd', 'chromium'));
  });
});

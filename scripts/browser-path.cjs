#!/usr/bin/env node
// Where the console's browser tests (and bench/console-render.mjs) find a Chromium or Chrome.
// One lookup for scripts/setup.sh, test/browser/browser.ts and the benchmark:
//   1. CHROMIUM_PATH, when set (it must then name an executable: a wrong setting is an error, not a fallback);
//   2. a browser on PATH: chromium, chromium-browser, google-chrome, google-chrome-stable, chrome;
//   3. the usual install places: Debian's /usr/bin/chromium, /snap/bin/chromium, macOS application bundles.
// As a command it prints the path found, or exits 1 with nothing on stdout.
'use strict';
const { accessSync, constants, statSync } = require('node:fs');
const { delimiter, join } = require('node:path');
const { homedir } = require('node:os');

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];
const PLACES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  join(homedir(), 'Applications/Chromium.app/Contents/MacOS/Chromium'),
  join(homedir(), 'Applications/Google Chrome.app/Contents/MacOS/Google Chrome'),
];

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The browser to drive, or null when none is on this machine. Throws when CHROMIUM_PATH names no executable. */
function findBrowser(env = process.env) {
  if (env.CHROMIUM_PATH) {
    if (executable(env.CHROMIUM_PATH)) return env.CHROMIUM_PATH;
    throw new Error(`CHROMIUM_PATH=${env.CHROMIUM_PATH} is not an executable file: point it at a Chromium or Chrome binary, or unset it`);
  }
  for (const dir of (env.PATH || '').split(delimiter).filter(Boolean)) {
    for (const name of NAMES) if (executable(join(dir, name))) return join(dir, name);
  }
  return PLACES.find(executable) ?? null;
}

module.exports = { findBrowser };

if (require.main === module) {
  try {
    const found = findBrowser();
    if (!found) process.exit(1);
    process.stdout.write(`${found}\n`);
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    process.exit(2);
  }
}

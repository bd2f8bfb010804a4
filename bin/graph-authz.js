#!/usr/bin/env node
'use strict';
// The `graph-authz` command (package.json "bin"): runs the compiled CLI (src/cli/main.ts, built by `npm run build`).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const built = join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
if (!existsSync(built)) {
  process.stderr.write('graph-authz: the command is not built yet; run `npm run build` in the checkout first.\n');
  process.exit(2);
}
require(built)
  .main(process.argv)
  .then((code) => {
    process.exitCode = code;
  });

/**
 * Closes the run with one plain line, `tests: N passed, N failed[, N skipped]`, that any CI reader
 * understands, and writes the same counts to test-results/summary.json for .ci/run's last line.
 */
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

class PlainSummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const passed = results.numPassedTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const dir = join(this.rootDir, 'test-results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'summary.json'), `${JSON.stringify({ passed, failed, skipped })}\n`);
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}

module.exports = PlainSummaryReporter;

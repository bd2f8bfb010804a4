/** Integration and HTTP tests share one real Neo4j, started once per run by test/globalSetup. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': 'ts-jest' },
  globalSetup: '<rootDir>/test/support/globalSetup.ts',
  globalTeardown: '<rootDir>/test/support/globalTeardown.ts',
  // The client library's source is Node ESM (`./http.js` imports); under ts-jest they name the .ts files.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testTimeout: 60000,
  maxWorkers: 2,
  // The default report, then one plain closing line (`tests: N passed, N failed`) for CI readers.
  reporters: ['default', '<rootDir>/test/support/plainSummaryReporter.js'],
};

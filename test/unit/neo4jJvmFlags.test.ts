import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { JVM_ADDITIONAL, PROCEDURE_ALLOWLIST } from '../../src/db/resolveNeo4j';

/**
 * Every Neo4j the project runs gets the same settings (docs/walk-extension.md, "Where it is loaded"):
 * the image of docker-compose.yml (neo4j/Dockerfile), testcontainers (src/db/resolveNeo4j.ts) and
 * the local launcher (scripts/neo4j-local.mjs, neo4j/Launcher.java) that the tests and benchmarks run.
 */
const ROOT = resolve(__dirname, '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

it('the image, testcontainers and the local launcher run Neo4j with the same JVM flag and procedure allowlist', () => {
  const dockerfile = read('neo4j/Dockerfile');
  expect(dockerfile).toContain(`ENV NEO4J_server_jvm_additional=${JVM_ADDITIONAL}`);
  expect(dockerfile).toContain(`ENV NEO4J_dbms_security_procedures_allowlist=${PROCEDURE_ALLOWLIST}`);
  expect(read('scripts/neo4j-local.mjs')).toContain(`'${JVM_ADDITIONAL}',`);
  expect(read('neo4j/Launcher.java')).toContain(`PROCEDURE_ALLOWLIST = "${PROCEDURE_ALLOWLIST}"`);
});

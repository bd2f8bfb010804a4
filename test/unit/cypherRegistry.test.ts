import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CypherRegistry } from '../../src/db/cypherRegistry';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cypher-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('CypherRegistry', () => {
  it('expands #include lines with fragments, nested, and does not offer fragments as statements', () => {
    const root = tree({
      'fragments/inner.cypher': 'WITH 1 AS one\n',
      'fragments/outer.cypher': 'MATCH (n)\n// #include fragments/inner\n',
      'a/stmt.cypher': '// header\n  // #include fragments/outer\nRETURN one\n',
    });
    const registry = new CypherRegistry(root);
    expect(registry.get('a/stmt')).toBe('// header\nMATCH (n)\nWITH 1 AS one\nRETURN one\n');
    expect(registry.names()).toEqual(['a/stmt']);
    expect(() => registry.get('fragments/inner')).toThrow(/no file/);
  });

  it('fails at construction on an unknown include or a cycle', () => {
    expect(() => new CypherRegistry(tree({ 'a/s.cypher': '// #include fragments/missing\n' }))).toThrow(/fragments\/missing/);
    expect(() => new CypherRegistry(tree({
      'fragments/x.cypher': '// #include fragments/y\n',
      'fragments/y.cypher': '// #include fragments/x\n',
      'a/s.cypher': '// #include fragments/x\n',
    }))).toThrow(/cycle/);
  });
});

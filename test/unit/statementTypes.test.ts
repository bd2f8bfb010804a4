import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const { renderStatementTypes } = require('../../scripts/gen-statement-types.cjs') as {
  renderStatementTypes: (cypherDir: string) => string;
};

describe('statement row types', () => {
  it('are the ones generated from the `// @row` headers of cypher/ (run `npm run gen:statements` after changing one)', () => {
    const committed = readFileSync(resolve(__dirname, '../../src/db/statements.generated.ts'), 'utf8');
    expect(committed).toBe(renderStatementTypes(resolve(__dirname, '../../cypher')));
  });

  it('take a header over several comment lines and `// @row none`, and skip fragments and migrations', () => {
    const root = mkdtempSync(join(tmpdir(), 'rows-'));
    const put = (path: string, text: string) => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    put(
      'b/two.cypher',
      '// @invalidates $env\n// @changes none\n// @row {\n//   n: number;\n//   m: { k: string }[];\n// }\n// prose\nRETURN 1 AS n\n',
    );
    put('a/one.cypher', '// @row { key: string }\nRETURN 1\n');
    put('a/quiet.cypher', '// @invalidates $env\n// @changes none\n// @row none\nMATCH (n {env: $env}) SET n.x = 1\n');
    put('fragments/f.cypher', '// @row { x: number }\nWITH 1 AS x\n');
    put('migrations/V1__x.cypher', '// @row { x: number }\nRETURN 1\n');
    const out = renderStatementTypes(root);
    expect(out).toContain("  'a/one': { key: string };\n");
    expect(out).toContain("  'b/two': {\n    n: number;\n    m: { k: string }[];\n  };\n");
    expect(out).toContain("  'a/quiet': never;\n");
    expect(out.indexOf("'a/one'")).toBeLessThan(out.indexOf("'b/two'"));
    expect(out).not.toMatch(/fragments|migrations/);
    put('c/open.cypher', '// @row { key: string\nRETURN 1\n');
    expect(() => renderStatementTypes(root)).toThrow(/open\.cypher: its @row type does not close/);
  });

  it('refuse a statement without a `// @row` header, naming its file (no statement runs with untyped rows)', () => {
    const root = mkdtempSync(join(tmpdir(), 'rows-'));
    mkdirSync(join(root, 'a'));
    writeFileSync(join(root, 'a', 'one.cypher'), '// @row { key: string }\nRETURN 1 AS key\n');
    writeFileSync(join(root, 'a', 'untyped.cypher'), '// A statement whose author forgot its rows.\nRETURN 1 AS n\n');
    expect(() => renderStatementTypes(root)).toThrow(/a[\\/]untyped\.cypher: no @row header/);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The tables of docs/conditions.md, read by the evaluator's tests (test/unit/conditions.test.ts)
 * and the conditions oracle (test/oracle/conditions.test.ts) alike: a row changed in the document
 * moves both. `name` is the table's marker: the rows between `<!-- name -->` and `<!-- /name -->`,
 * header and rule left out, cells trimmed, backticks dropped.
 */
export function conditionsTable(name: 'truth-table' | 'tree-table'): string[][] {
  const doc = readFileSync(join(__dirname, '../../docs/conditions.md'), 'utf8');
  const body = doc.split(`<!-- ${name} -->`)[1].split(`<!-- /${name} -->`)[0];
  return body
    .split('\n')
    .filter((l) => l.startsWith('|'))
    .slice(2)
    .map((l) =>
      l
        .slice(1, -1)
        .split(' | ')
        .map((c) => c.trim().replace(/^`|`$/g, '')),
    );
}

/** A value cell of the truth table: JSON, or `missing` (undefined: the attribute is absent). */
export const cellValue = (cell: string): unknown => (cell === 'missing' ? undefined : JSON.parse(cell));

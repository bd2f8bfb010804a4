import { compare, evaluate, type Operator, OPERATORS } from '../../src/areas/conditions/evaluate';
import { conditionProblems } from '../../src/areas/conditions/validate';
import { cellValue as value, conditionsTable as table } from '../support/conditionsTable';

describe('the evaluator follows the truth table of docs/conditions.md', () => {
  const rows = table('truth-table');
  it('has rows for every operator', () => {
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(OPERATORS));
    // Every operator has a row with a missing attribute, and it answers false.
    for (const op of OPERATORS) expect(rows.some((r) => r[0] === op && r[1] === 'missing' && r[3] === 'false')).toBe(true);
  });
  it.each(rows)('%s: attribute %s, value %s -> %s', (op, actual, expected, result) => {
    expect(compare(op as Operator, value(actual), value(expected))).toBe(result === 'true');
    // The same row as a leaf of a tree, the value coming from the question's attributes.
    const attrs = { user: actual === 'missing' ? {} : { a: value(actual) }, resource: {}, context: {} };
    const out = evaluate({ 'user.a': { [op]: value(expected) } }, attrs);
    expect(out.result).toBe(result === 'true');
    expect(out.trace).toEqual([expect.objectContaining({ attribute: 'user.a', operator: op, held: result === 'true' })]);
  });
  it.each(table('tree-table'))('%s with %s -> %s', (tree, attrs, result) => {
    const a = { user: {}, resource: {}, context: {}, ...JSON.parse(attrs) };
    expect(evaluate(JSON.parse(tree), a).result).toBe(result === 'true');
  });
  it('traces every leaf with the value found', () => {
    const { trace } = evaluate(
      { allOf: [{ 'user.department': { equals: 'eng' } }, { anyOf: [{ 'context.ip': { equals: '1' } }] }] },
      { user: { department: 'sales' }, resource: {}, context: { ip: '1' } },
    );
    expect(trace).toEqual([
      { path: 'allOf[0].user.department', attribute: 'user.department', operator: 'equals', value: 'eng', actual: 'sales', held: false },
      { path: 'allOf[1].anyOf[0].context.ip', attribute: 'context.ip', operator: 'equals', value: '1', actual: '1', held: true },
    ]);
  });
  it('never reads inherited properties as attributes', () => {
    expect(evaluate({ 'user.constructor': { 'not-equals': 'x' } }, { user: {}, resource: {}, context: {} }).result).toBe(false);
  });
});

describe('conditions are checked against the declared attributes', () => {
  const schema = {
    type: 'resourceset' as const,
    resource: 'document',
    userAttributes: { clearance: 'number' as const },
    resourceAttributes: { classification: 'string' as const, tags: 'array' as const },
  };
  it('accepts what fits', () => {
    expect(
      conditionProblems(
        {
          allOf: [
            { 'resource.classification': { in: ['internal', 'public'] } },
            { 'resource.tags': { array_contains: 'x' } },
            { 'context.ip': { 'greater-than': 'anything' } },
            { 'resource.key': { equals: { ref: 'user.key' } } },
          ],
        },
        schema,
      ),
    ).toEqual([]);
  });
  it('names each condition that does not fit', () => {
    const problems = conditionProblems(
      {
        allOf: [
          { 'resource.owner': { equals: 'x' } },
          { 'resource.classification': { 'greater-than': 'x' } },
          { 'resource.classification': { equals: 3 } },
          { 'resource.tags': { matches: 'x' } },
          { 'user.clearance': { 'greater-than': 'high' } },
          { 'user.department': { equals: 'eng' } },
        ],
      },
      schema,
    );
    expect(problems.map((p) => p.path)).toEqual([
      'allOf[3].resource.tags.matches',
      'allOf[0].resource.owner',
      'allOf[1].resource.classification.greater-than',
      'allOf[2].resource.classification.equals',
      'allOf[4].user.clearance.greater-than',
      'allOf[5].user.department',
    ]);
    expect(conditionProblems({ 'resource.classification': { equals: 'x' } }, { ...schema, type: 'userset', resource: null })).toHaveLength(
      1,
    );
  });
});

import neo4j, { type Driver } from 'neo4j-driver';
import { createDriver } from '../../src/db/driver';

/**
 * The service's driver passes primitives, arrays and plain objects to its packer without running
 * them through the driver's type transformers (src/db/driver.ts). Values of the driver's own
 * classes (temporal types, points, integers) must still reach Neo4j as what they are, alone, in
 * lists and in maps, and plain values as themselves.
 */
let driver: Driver;
beforeAll(() => {
  driver = createDriver({
    uri: process.env.NEO4J_URI!,
    user: process.env.NEO4J_USER ?? 'neo4j',
    password: process.env.NEO4J_PASSWORD ?? 'neo4j',
    timeoutMs: 30_000,
  });
});
afterAll(() => driver.close());

async function echo(value: unknown): Promise<{ value: unknown; type: string }> {
  const session = driver.session();
  try {
    const { records } = await session.run('RETURN $value AS value, valueType($value) AS type', { value });
    return { value: records[0].get('value'), type: records[0].get('type') };
  } finally {
    await session.close();
  }
}

it('sends the driver types as Neo4j values, alone and inside lists and maps', async () => {
  const date = new neo4j.types.Date(2026, 11, 29);
  const zoned = new neo4j.types.DateTime(2026, 11, 29, 3, 30, 15, 5, undefined, 'Europe/Paris');
  const offset = new neo4j.types.DateTime(2026, 11, 29, 3, 30, 15, 5, 3600);
  const local = new neo4j.types.LocalDateTime(2026, 11, 29, 3, 30, 15, 5);
  const duration = new neo4j.types.Duration(1, 2, 3, 4);
  const point = new neo4j.types.Point(7203, 1.5, 2.5);
  const point3 = new neo4j.types.Point(9157, 1, 2, 3);

  expect(await echo(date)).toEqual({ value: date, type: 'DATE NOT NULL' });
  expect((await echo(zoned)).type).toBe('ZONED DATETIME NOT NULL');
  expect(String((await echo(zoned)).value)).toBe('2026-11-29T03:30:15.000000005+01:00[Europe/Paris]');
  expect((await echo(offset)).type).toBe('ZONED DATETIME NOT NULL');
  expect(String((await echo(offset)).value)).toBe(String(offset));
  expect(await echo(local)).toEqual({ value: local, type: 'LOCAL DATETIME NOT NULL' });
  expect((await echo(duration)).type).toBe('DURATION NOT NULL');
  expect(String((await echo(duration)).value)).toBe(String(duration));
  expect((await echo(point)).type).toBe('POINT NOT NULL');
  expect((await echo(point3)).type).toBe('POINT NOT NULL');
  expect(await echo(neo4j.int(123_456_789_012))).toEqual({ value: 123_456_789_012, type: 'INTEGER NOT NULL' });

  const inList = await echo([date, 'text', 1.5, [local], { at: date }]);
  expect(inList.type).toBe(
    'LIST<STRING NOT NULL | FLOAT NOT NULL | DATE NOT NULL | MAP NOT NULL | LIST<LOCAL DATETIME NOT NULL> NOT NULL> NOT NULL',
  );
  expect(inList.value).toEqual([date, 'text', 1.5, [local], { at: date }]);
  const inMap = await echo({ at: date, nested: { where: point, when: [local] }, n: neo4j.int(3) });
  expect(inMap.type).toBe('MAP NOT NULL');
  expect(inMap.value).toEqual({ at: date, nested: { where: point, when: [local] }, n: 3 });
});

it('sends plain values as themselves', async () => {
  expect(await echo('a string')).toEqual({ value: 'a string', type: 'STRING NOT NULL' });
  expect(await echo(2.5)).toEqual({ value: 2.5, type: 'FLOAT NOT NULL' });
  expect(await echo(true)).toEqual({ value: true, type: 'BOOLEAN NOT NULL' });
  expect(await echo(null)).toEqual({ value: null, type: 'NULL' });
  expect(await echo(['a', 'b', ''])).toEqual({ value: ['a', 'b', ''], type: 'LIST<STRING NOT NULL> NOT NULL' });
  const map = Object.assign(Object.create(null), { key: 'k', list: [1.5, 'x'], deep: { ok: false } });
  expect(await echo(map)).toEqual({ value: { key: 'k', list: [1.5, 'x'], deep: { ok: false } }, type: 'MAP NOT NULL' });
});

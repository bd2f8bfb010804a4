import { Permit } from 'permitio';
import { startTestService, type TestService } from '../support/testService';

/**
 * The ABAC walkthrough (docs/behaviour.md section 17) through Permit's official Node SDK `permitio` 2.7.6:
 * users with department and clearance, documents with classification, the user set
 * "engineering", the resource set "internal docs", a set rule granting read, and a second rule
 * (review) that a context attribute decides. Every schema call is the SDK's.
 */
let t: TestService;
let permit: Permit;
const doc = (key: string) => ({ type: 'document', key, tenant: 'abac-co' });

beforeAll(async () => {
  t = await startTestService();
  permit = new Permit({ token: t.envKey, pdp: t.url, apiUrl: t.url, throwOnError: true, log: { level: 'error' } } as never);
});
afterAll(async () => t?.close());

describe('permitio 2.7.6: ABAC', () => {
  it('declares attributes (resourceAttributes)', async () => {
    const api = permit.api;
    await api.resources.create({ key: 'document', name: 'Document', actions: { read: {}, review: {} } });
    await api.tenants.create({ key: 'abac-co', name: 'ABAC Co' });
    const cls = await api.resourceAttributes.create('document', { key: 'classification', type: 'string' } as never);
    expect(cls).toEqual(expect.objectContaining({ key: 'classification', type: 'string', resource_key: 'document' }));
    await api.resourceAttributes.create('document', { key: 'pages', type: 'number' } as never);
    await api.resourceAttributes.create('__user', { key: 'department', type: 'string' } as never);
    await api.resourceAttributes.create('__user', { key: 'clearance', type: 'number' } as never);
    expect((await api.resourceAttributes.get('document', 'classification')).type).toBe('string');
    expect((await api.resourceAttributes.getByKey('__user', 'clearance')).type).toBe('number');
    expect((await api.resourceAttributes.getById(cls.resource_id, cls.id)).key).toBe('classification');
    expect((await api.resourceAttributes.update('document', 'pages', { description: 'page count' })).description).toBe('page count');
    expect((await api.resourceAttributes.list({ resourceKey: 'document' })).map((a) => a.key)).toEqual(['classification', 'pages']);
    await api.resourceAttributes.delete('document', 'pages');
    await expect(api.resourceAttributes.get('document', 'pages')).rejects.toThrow();
  });

  it('defines the sets (conditionSets)', async () => {
    const cs = permit.api.conditionSets;
    const eng = await cs.create({
      key: 'engineering',
      name: 'Engineering',
      type: 'userset',
      conditions: { allOf: [{ allOf: [{ 'user.department': { equals: 'engineering' } }] }] },
    } as never);
    await cs.create({
      key: 'internal-docs',
      name: 'Internal docs',
      type: 'resourceset',
      resource_id: 'document',
      conditions: { allOf: [{ 'resource.classification': { equals: 'internal' } }] },
    } as never);
    await cs.create({
      key: 'office',
      name: 'On the office network',
      type: 'userset',
      conditions: { allOf: [{ 'user.clearance': { 'greater-than-equals': 3 } }, { 'context.network': { equals: 'office' } }] },
    } as never);
    expect((await cs.get('engineering')).name).toBe('Engineering');
    expect((await cs.getByKey('internal-docs')).type).toBe('resourceset');
    expect((await cs.getById(eng.id)).key).toBe('engineering');
    expect((await cs.update('engineering', { name: 'Engineers' })).name).toBe('Engineers');
    expect((await cs.list()).map((s) => s.key)).toEqual(['engineering', 'internal-docs', 'office']);
    await cs.create({ key: 'scratch', name: 'Scratch' } as never);
    await cs.delete('scratch');
    await expect(cs.get('scratch')).rejects.toThrow();
    // A condition that does not fit its attribute's type: refused, naming it.
    await expect(
      cs.create({ key: 'bad', name: 'Bad', type: 'userset', conditions: { 'user.clearance': { equals: 'high' } } } as never),
    ).rejects.toThrow();
  });

  it('decides through set rules (conditionSetRules), with attributes and context', async () => {
    const api = permit.api;
    for (const [key, department, clearance] of [
      ['eve', 'engineering', 3],
      ['finn', 'sales', 5],
      ['gus', 'engineering', 1],
    ] as const)
      await api.users.create({ key, attributes: { department, clearance } });
    await api.resourceInstances.create({
      key: 'design',
      tenant: 'abac-co',
      resource: 'document',
      attributes: { classification: 'internal' },
    });
    await api.resourceInstances.create({
      key: 'payroll',
      tenant: 'abac-co',
      resource: 'document',
      attributes: { classification: 'secret' },
    });

    expect(await permit.check('eve', 'read', doc('design'))).toBe(false);
    await api.conditionSetRules.create({ user_set: 'engineering', permission: 'document:read', resource_set: 'internal-docs' });
    expect(await permit.check('eve', 'read', doc('design'))).toBe(true);
    expect(await permit.check('gus', 'read', doc('design'))).toBe(true);
    expect(await permit.check('eve', 'read', doc('payroll'))).toBe(false);
    expect(await permit.check('finn', 'read', doc('design'))).toBe(false);
    expect(await permit.check({ key: 'finn', attributes: { department: 'engineering' } }, 'read', doc('design'))).toBe(true);
    expect(await permit.check('eve', 'read', { ...doc('payroll'), attributes: { classification: 'internal' } })).toBe(true);

    await api.conditionSetRules.create({ user_set: 'office', permission: 'document:review', resource_set: 'internal-docs' });
    expect(await permit.check('eve', 'review', doc('design'), { network: 'office' })).toBe(true);
    expect(await permit.check('eve', 'review', doc('design'), { network: 'home' })).toBe(false);
    expect(await permit.check('eve', 'review', doc('design'))).toBe(false);
    expect(await permit.check('gus', 'review', doc('design'), { network: 'office' })).toBe(false);
    // permitio 2.7.6's bulkCheck sends one context with every check (its second argument).
    const bulk = [
      { user: 'eve', action: 'read', resource: doc('design') },
      { user: 'finn', action: 'read', resource: doc('design') },
      { user: 'eve', action: 'review', resource: doc('design') },
    ];
    expect(await permit.bulkCheck(bulk, { network: 'office' })).toEqual([true, false, true]);
    expect(await permit.bulkCheck(bulk, { network: 'home' })).toEqual([true, false, false]);
    const perms = await permit.getUserPermissions('eve', ['abac-co']);
    expect(perms['document:design'].permissions).toEqual(['document:read']);

    const rules = await api.conditionSetRules.list({ userSetKey: 'engineering' } as never);
    expect(rules.map((r) => r.permission)).toEqual(['document:read']);
    await api.conditionSetRules.delete({ user_set: 'engineering', permission: 'document:read', resource_set: 'internal-docs' });
    expect(await permit.check('eve', 'read', doc('design'))).toBe(false);
  });
});

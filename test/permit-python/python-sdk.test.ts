import { startTestService, type TestService } from '../support/testService';
import { type DriverLine, type DriverRun, failuresOf, runDriver, venvProblem } from './runDriver';

/**
 * docs/behaviour.md section 14: the official Python SDK `permit` 3.0.0 (pinned in requirements.txt,
 * installed into .venv-permit by scripts/setup.sh), unmodified, against the real service started
 * with its defaults. test/permit-python/driver.py makes every call and asserts its answer; this
 * file names each failing call under its SDK area.
 */

/**
 * The Permit methods we do not serve, with the reason (also in docs/permit-sdks.md). Every other
 * method of the installed SDK's surface must be driven by driver.py. This list must not grow.
 */
export const UNSERVED: Record<string, { methods: string[]; reason: string }> = {};

export const unservedMethods = (): string[] =>
  Object.entries(UNSERVED)
    .flatMap(([prefix, { methods }]) => methods.map((m) => `${prefix}.${m}`))
    .sort();

/** Every SDK area driver.py reports under; each gets its own test. */
const AREAS = [
  'resources',
  'resource_actions',
  'roles',
  'resource_roles',
  'resource_relations',
  'role_derivations',
  'tenants',
  'users',
  'user_roles',
  'resource_instances',
  'role_assignments',
  'relationship_tuples',
  'action_groups',
  'user_invites',
  'pdp',
  'elements',
  'projects',
  'environments',
  'abac',
];

let t: TestService;
let run: DriverRun;

beforeAll(async () => {
  const missing = venvProblem();
  if (missing) throw new Error(missing);
  t = await startTestService();
  run = await runDriver({ url: t.url, envToken: t.envKey, orgToken: t.adminKey, mode: 'full', project: t.proj, env: t.env });
}, 300_000);
afterAll(async () => t?.close());

it('the driver runs to its end', () => {
  expect(run.problem).toBeUndefined();
});

describe.each(AREAS)('permit (Python) %s', (area) => {
  it('every call answers what the SDK and the user expect', () => {
    const calls = run.lines.filter((l): l is DriverLine => l.area === area);
    expect(calls.length).toBeGreaterThan(0);
    expect(failuresOf(calls)).toEqual([]);
  });
});

it('reports only the areas above', () => {
  const areas = new Set(run.lines.map((l) => l.area));
  expect([...areas].filter((a) => !AREAS.includes(a))).toEqual([]);
});

it('every method of the SDK surface is driven, or listed as unserved with its reason', () => {
  const driven = new Set(run.lines.map((l) => l.call));
  const unserved = unservedMethods();
  expect(run.surface.length).toBeGreaterThan(100);
  // Neither driven nor listed: a method the SDK has that this suite forgot.
  expect(run.surface.filter((m) => !driven.has(m) && !unserved.includes(m))).toEqual([]);
  // Listed as unserved but driven (or not in the SDK at all): the list is wrong.
  expect(unserved.filter((m) => driven.has(m) || !run.surface.includes(m))).toEqual([]);
});

it('every method of permit.api is served (issue 42 served the last: action groups and user invites)', () => {
  expect(unservedMethods()).toEqual([]);
});

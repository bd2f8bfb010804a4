import { startTestService, type TestService } from '../support/testService';
import { agreementWorld, checkAuthzen, checkLists, checkQuestions, checkUserTenants, loadAgreementWorld } from './agreement';

/**
 * One answer per question, whatever the endpoint (docs/decisions.md): random worlds with set rules
 * on attributes (stored and sent), context, tenant roles in two tenants, instance roles and a
 * group (test/oracle/agreement.ts). Every question asked through `/allowed` gets the same answer
 * through bulk, all-tenants, user-permissions, authorized users and list-objects (every page), and
 * through the AuthZEN evaluation, evaluations and subject and resource searches (every page);
 * user-tenants lists the tenants each user belongs to. Reproduce with AGREEMENT_SEED=<seed>
 * AGREEMENT_WORLDS=<n>.
 */
const SEED = Number(process.env.AGREEMENT_SEED ?? 20261127);
const COUNT = Number(process.env.AGREEMENT_WORLDS ?? 4);

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.close());

it(`every endpoint answers each question as /allowed does, on ${COUNT} random worlds (seed ${SEED})`, async () => {
  let compared = 0;
  const problems: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const w = agreementWorld(SEED, i);
    const env = await loadAgreementWorld(t, w);
    const contexts = [{ zone: 'office', mfa: true }, { zone: 'home' }];
    for (const outcome of [
      (await checkQuestions(t, env, w)).outcome,
      await checkLists(t, env, w, contexts),
      await checkUserTenants(t, env, w),
      await checkAuthzen(t, env, w),
    ]) {
      compared += outcome.compared;
      problems.push(...outcome.problems.map((p) => `world ${i}: ${p}`));
    }
  }
  // The worlds are large enough to compare many answers, and some must be allowed only by set rules.
  expect(compared).toBeGreaterThan(1000);
  // At most 5 of each kind of problem, so that every kind shows.
  const shown = new Map<string, string[]>();
  for (const p of problems) {
    const kind = p.split(' ')[2];
    const list = shown.get(kind) ?? [];
    if (list.length < 5) shown.set(kind, [...list, p]);
  }
  expect([...shown.values()].flat()).toEqual([]);
}, 600_000);

import { notFound } from '../../errors';
import { unique } from '../../util/unique';
import { newWebhookSecret } from '../webhooks/outbox';
import type { ElementsType, Level } from './schemas';
import type { ConfigWrite, GovernedResource, GovernedUpdate } from './store';

/**
 * What an elements config writes, in one place for both writers: the elements API
 * (./service.ts) and a policy apply (../policy/service.ts), which runs the same store
 * statements inside its own transaction.
 */

/** The actions an approval flow needs on a governed resource, added when missing (docs/behaviour.md section 7). */
export const APPROVAL_ACTIONS: Record<string, { name: string; description: string }> = {
  operate: { name: 'Operate', description: 'Perform the operation governed by operation approvals' },
  review: { name: 'Review', description: 'Review (approve or deny) operation approvals' },
};
/** The roles governResources.cypher makes on a governed resource: `_Reviewer_` (review) and `_Approved_` (operate). */
export const APPROVAL_ROLES = ['_Reviewer_', '_Approved_'];

export type RolesToLevels = Partial<Record<Level, string[]>>;
export interface Webhook {
  url: string;
  bearer_token?: string;
}
/** A config's own fields as both writers give them (a patch leaves out what it keeps). */
export interface ConfigFields {
  name?: string;
  elements_type?: ElementsType;
  settings?: { resources?: string[] } & Record<string, unknown>;
  roles_to_levels?: RolesToLevels;
}

const parse = <T>(text: string | null | undefined, fallback: T): T => (text ? (JSON.parse(text) as T) : fallback);

/**
 * The webhook part of a config write: `undefined` leaves it as it is, null removes it. `keep`
 * (a policy apply: webhooks are not in policy files) leaves it and gives no secret, so that the
 * PATCH that later sets a webhook makes the secret and shows it that once.
 */
export function webhookWrite(w: Webhook | null | undefined | 'keep') {
  if (w === 'keep') return { setWebhook: false, webhook_url: null, webhook_bearer_token: null, webhook_secret: null };
  return {
    setWebhook: w !== undefined,
    webhook_url: w?.url ?? null,
    webhook_bearer_token: w?.bearer_token ?? null,
    webhook_secret: newWebhookSecret(),
  };
}

/** The store's write of a config (create: every field; update: null keeps a field). `resources` null: governance unchanged. */
export function configWrite(f: ConfigFields, webhook: ReturnType<typeof webhookWrite>, nowIso: string): ConfigWrite {
  const resources = f.settings ? unique(f.settings.resources ?? []) : null;
  return {
    name: f.name ?? null,
    settings_json: f.settings ? JSON.stringify({ ...f.settings, resources }) : null,
    roles_to_levels_json: f.roles_to_levels ? JSON.stringify(f.roles_to_levels) : null,
    resources,
    nowIso,
    ...webhook,
  };
}

/** Each governed resource must exist (404); it gets the actions `operate` and `review` when missing. */
export function governed(keys: string[], found: GovernedResource[]): GovernedUpdate[] {
  const byKey = new Map(found.map((r) => [r.key, r]));
  return keys.map((key) => {
    const r = byKey.get(key);
    if (!r) throw notFound('Resource', key);
    const map = parse<Record<string, unknown>>(r.actions_json, {});
    const actions = [...(r.actions ?? Object.keys(map))];
    for (const [action, block] of Object.entries(APPROVAL_ACTIONS)) {
      if (!actions.includes(action)) actions.push(action);
      if (!map[action]) map[action] = block;
    }
    return { key, actions, actions_json: JSON.stringify(map) };
  });
}

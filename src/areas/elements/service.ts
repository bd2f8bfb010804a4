import { randomUUID } from 'node:crypto';
import { scoped, type Scope } from '../../auth/types';
import { type ErrorDetail, invalidInput, notFound } from '../../errors';
import { envelopeOf, type Page } from '../../http/paging';
import type { BlockedNetworks } from '../../util/networks';
import { now } from '../../util/time';
import { newWebhookSecret } from '../webhooks/outbox';
import type { HeldDelivery, WebhookStore } from '../webhooks/store';
import { unique } from '../../util/unique';
import type { ElementsConfigNode, ElementsStore, GovernedResource, GovernedUpdate } from './store';

import { ELEMENTS_TYPES, LEVELS, type ElementsType, type Level } from './schemas';

export { ELEMENTS_TYPES, LEVELS, type ElementsType, type Level };
export type RolesToLevels = Partial<Record<Level, string[]>>;
/** Levels whose roles make a user a reviewer of every approval in their tenant. */
export const REVIEWER_LEVELS: Level[] = ['LEVEL_1', 'LEVEL_2'];

export interface ConfigInput {
  key: string;
  name: string;
  elements_type: ElementsType;
  settings?: { resources?: string[] } & Record<string, unknown>;
  roles_to_levels: RolesToLevels;
  webhook?: Webhook;
}
export interface Webhook {
  url: string;
  bearer_token?: string;
}
export type ConfigPatch = Partial<Pick<ConfigInput, 'name' | 'settings' | 'roles_to_levels'>> & { webhook?: Webhook | null };

/** The actions an approval flow needs on a governed resource, added when missing. */
const APPROVAL_ACTIONS: Record<string, { name: string; description: string }> = {
  operate: { name: 'Operate', description: 'Perform the operation governed by operation approvals' },
  review: { name: 'Review', description: 'Review (approve or deny) operation approvals' },
};

const parse = <T>(text: string | null | undefined, fallback: T): T => (text ? (JSON.parse(text) as T) : fallback);

/** The config as stored, parsed; used by the approvals area. */
export interface ElementsConfig {
  id: string;
  key: string;
  elementsType: string;
  resources: string[];
  rolesToLevels: Record<Level, string[]>;
}

export function configOf(c: ElementsConfigNode): ElementsConfig {
  const levels = parse<RolesToLevels>(c.roles_to_levels_json, {});
  return {
    id: c.id,
    key: c.key,
    elementsType: c.elements_type,
    resources: c.resources ?? [],
    rolesToLevels: Object.fromEntries(LEVELS.map((l) => [l, levels[l] ?? []])) as Record<Level, string[]>,
  };
}

/** Elements configs (CONTRACT section 7): which resources an approval flow governs, and who reviews. */
export class ElementsService {
  constructor(
    private readonly store: ElementsStore,
    private readonly blocked: BlockedNetworks,
    private readonly webhooks: WebhookStore,
  ) {}

  /** A webhook URL naming a blocked address literally is refused now (a host name is checked at each delivery). */
  private checkWebhook(w: Webhook | null | undefined): void {
    if (w && this.blocked.blocksLiteral(w.url)) {
      throw invalidInput(
        `webhook url ${JSON.stringify(w.url)} points into a network webhooks may not reach (internal and special addresses are refused unless WEBHOOK_ALLOWED_NETWORKS lists them; WEBHOOK_BLOCKED_NETWORKS always).`,
        [{ path: '/body/webhook/url', message: 'is in a blocked network' }],
      );
    }
  }

  view = (scope: Scope, c: ElementsConfigNode) => ({
    id: c.id,
    key: c.key,
    name: c.name,
    elements_type: c.elements_type,
    settings: parse<Record<string, unknown>>(c.settings_json, {}),
    roles_to_levels: configOf(c).rolesToLevels,
    webhook: c.webhook_url ? { url: c.webhook_url } : null,
    ...scoped(scope),
    created_at: c.created_at,
    updated_at: c.updated_at,
  });

  async create(scope: Scope, input: ConfigInput) {
    const resources = unique(input.settings?.resources ?? []);
    this.checkWebhook(input.webhook);
    await this.checkRoles(scope, input.roles_to_levels);
    const c = await this.store.writeConfig(
      scope.envId,
      {
        create: true,
        id: randomUUID(),
        key: input.key,
        name: input.name,
        elements_type: input.elements_type,
        settings_json: JSON.stringify({ ...(input.settings ?? {}), resources }),
        roles_to_levels_json: JSON.stringify(input.roles_to_levels),
        resources,
        nowIso: now(),
        ...webhookWrite(input.webhook),
      },
      (found) => governed(resources, found),
    );
    return this.withSecret(scope, c);
  }

  /** The view, plus the webhook secret when this write created it (the one time it is shown). */
  private withSecret(scope: Scope, c: ElementsConfigNode) {
    return c.secret_is_new && c.webhook_secret ? { ...this.view(scope, c), webhook_secret: c.webhook_secret } : this.view(scope, c);
  }

  async get(scope: Scope, ref: string) {
    return this.view(scope, await this.node(scope, ref));
  }

  async list(scope: Scope, page: Page) {
    const { total, data } = await this.store.listConfigs(scope.envId, page);
    return envelopeOf(
      data.map((c) => this.view(scope, c)),
      total,
      page,
    );
  }

  async update(scope: Scope, ref: string, patch: ConfigPatch) {
    this.checkWebhook(patch.webhook);
    const current = await this.node(scope, ref);
    const resources = patch.settings ? unique(patch.settings.resources ?? []) : null;
    if (patch.roles_to_levels) await this.checkRoles(scope, patch.roles_to_levels);
    const c = await this.store.writeConfig(
      scope.envId,
      {
        create: false,
        id: current.id,
        name: patch.name ?? null,
        settings_json: patch.settings ? JSON.stringify({ ...patch.settings, resources }) : null,
        roles_to_levels_json: patch.roles_to_levels ? JSON.stringify(patch.roles_to_levels) : null,
        resources,
        nowIso: now(),
        ...webhookWrite(patch.webhook),
      },
      (found) => (resources ? governed(resources, found) : []),
    );
    return this.withSecret(scope, c);
  }

  async remove(scope: Scope, ref: string) {
    const current = await this.node(scope, ref);
    if (!(await this.store.deleteConfig(scope.envId, current.id))) throw notFound('Elements config', ref);
  }

  /**
   * The config's webhook delivery status: its events still in the outbox (pending, with their
   * attempts and last error, or given up), newest first. A delivered event leaves the outbox.
   */
  async deliveries(scope: Scope, ref: string, status: HeldDelivery['status'] | undefined, page: Page) {
    const current = await this.node(scope, ref);
    const { total, data } = await this.webhooks.listDeliveries(scope.envId, current.id, status ?? null, page);
    return envelopeOf(data, total, page);
  }

  /** The parsed config, for the approvals area; undefined when there is none. */
  async find(scope: Scope, ref: string): Promise<ElementsConfig | undefined> {
    const c = await this.store.getConfig(scope.envId, ref);
    return c && configOf(c);
  }

  private async node(scope: Scope, ref: string): Promise<ElementsConfigNode> {
    const c = await this.store.getConfig(scope.envId, ref);
    if (!c) throw notFound('Elements config', ref);
    return c;
  }

  /** Every role named in roles_to_levels must be an existing tenant role (422 naming the others). */
  private async checkRoles(scope: Scope, levels: RolesToLevels): Promise<void> {
    const named = unique(LEVELS.flatMap((l) => levels[l] ?? []));
    if (!named.length) return;
    const existing = new Set(await this.store.existingRoles(scope.envId, named));
    const details: ErrorDetail[] = [];
    for (const l of LEVELS) {
      (levels[l] ?? []).forEach((role, i) => {
        if (!existing.has(role))
          details.push({ path: `/body/roles_to_levels/${l}/${i}`, message: `role ${JSON.stringify(role)} does not exist` });
      });
    }
    if (details.length)
      throw invalidInput(`roles_to_levels names roles that do not exist: ${details.map((d) => d.message).join('; ')}.`, details);
  }
}

/** The webhook part of a config write: `undefined` leaves it as it is, null removes it. */
function webhookWrite(w: Webhook | null | undefined) {
  return {
    setWebhook: w !== undefined,
    webhook_url: w?.url ?? null,
    webhook_bearer_token: w?.bearer_token ?? null,
    webhook_secret: newWebhookSecret(),
  };
}

/** Each governed resource must exist (404); it gets the actions `operate` and `review` when missing. */
function governed(keys: string[], found: GovernedResource[]): GovernedUpdate[] {
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

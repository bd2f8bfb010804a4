import { randomUUID } from 'node:crypto';
import { scoped, type Scope } from '../../auth/types';
import { type ErrorDetail, invalidInput, notFound } from '../../errors';
import { envelopeOf, type Page } from '../../http/paging';
import type { BlockedNetworks } from '../../util/networks';
import { now } from '../../util/time';
import type { HeldDelivery, WebhookStore } from '../webhooks/store';
import { unique } from '../../util/unique';
import { configWrite, governed, type RolesToLevels, type Webhook, webhookWrite } from './govern';
import type { ElementsConfigNode, ElementsStore } from './store';

import { ELEMENTS_TYPES, LEVELS, type ElementsType, type Level } from './schemas';

export { ELEMENTS_TYPES, LEVELS, type ElementsType, type Level };
export type { RolesToLevels, Webhook };
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
export type ConfigPatch = Partial<Pick<ConfigInput, 'name' | 'settings' | 'roles_to_levels'>> & { webhook?: Webhook | null };

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

/** Elements configs (docs/behaviour.md section 7): which resources an approval flow governs, and who reviews. */
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
    this.checkWebhook(input.webhook);
    await this.checkRoles(scope, input.roles_to_levels);
    const write = configWrite({ ...input, settings: input.settings ?? {} }, webhookWrite(input.webhook), now());
    const c = await this.store.writeConfig(
      scope.envId,
      { ...write, create: true, id: randomUUID(), key: input.key, elements_type: input.elements_type },
      (found) => governed(write.resources ?? [], found),
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
    if (patch.roles_to_levels) await this.checkRoles(scope, patch.roles_to_levels);
    const write = configWrite(patch, webhookWrite(patch.webhook), now());
    const c = await this.store.writeConfig(scope.envId, { ...write, create: false, id: current.id }, (found) =>
      write.resources ? governed(write.resources, found) : [],
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

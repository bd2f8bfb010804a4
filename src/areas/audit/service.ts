import type { ChangeEvent } from '../changes/store';
import { CONSOLE_ACTOR } from '../../auth/actor';
import type { Scope } from '../../auth/types';
import { envelopeOf, type Page } from '../../http/paging';
import { instantFilter } from '../../util/time';
import type { AuditStore } from './store';

/**
 * Change kinds that the audit log shows: the schema, elements configs, approvals and access requests.
 * Changes made through the admin console are shown whatever their kind (cypher/audit/listAudit.cypher).
 */
export const AUDITED_CHANGE_KINDS = [
  'resource',
  'role',
  'resource_role',
  'relation',
  'role_derivation',
  'role_parent',
  'action',
  'action_group',
  'elements_config',
  'operation_approval',
  'access_request',
];

export interface AuditQuery {
  actor?: string;
  kind?: string;
  from?: string;
  to?: string;
}

/** A change event, or a key/session event (those have no revision: they change no record of the graph API). */
export type AuditEntry = Omit<ChangeEvent, 'revision'> & { revision?: number };

const parsed = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : undefined);

/**
 * The audit log (docs/behaviour.md section 12, admin only): key creation, rotation and revocation, logins
 * and logouts (their own events), approval transitions and schema changes (a view of the change events).
 */
export class AuditService {
  constructor(private readonly store: AuditStore) {}

  async list(scope: Scope, f: AuditQuery, p: Page) {
    const row = await this.store.list(scope.envId, {
      kinds: AUDITED_CHANGE_KINDS,
      consoleKind: CONSOLE_ACTOR.kind,
      consoleId: CONSOLE_ACTOR.id,
      actor: f.actor ?? null,
      kind: f.kind ?? null,
      from: instantFilter(f.from, '/query/from'),
      to: instantFilter(f.to, '/query/to'),
      skip: p.skip,
      limit: p.perPage,
    });
    const data = (row?.page ?? []).map((e): AuditEntry => {
      const before = parsed(e.before);
      const after = parsed(e.after);
      return {
        at: e.at,
        ...(typeof e.revision === 'number' ? { revision: e.revision } : {}),
        actor: { kind: e.actor_kind, id: e.actor_id },
        op: e.op,
        kind: e.kind,
        key: e.key,
        ...(before !== undefined ? { before } : {}),
        ...(after !== undefined ? { after } : {}),
      };
    });
    return envelopeOf(data, row?.total ?? 0, p);
  }
}

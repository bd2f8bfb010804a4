import { randomUUID } from 'node:crypto';
import { scoped, type Scope } from '../../auth/types';
import { invalidInput, invalidState, notFound } from '../../errors';
import { envelopeOf, type Page } from '../../http/paging';
import { toJson } from '../../util/json';
import type { RoleAssignmentsService } from '../assignments/service';
import type { FactsService } from '../facts/service';
import type { UserInviteNode, UserInvitesStore } from './store';

export interface InviteInput {
  key: string;
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  role_id: string;
  tenant_id: string;
  resource_instance_id?: string | null;
}

/**
 * Permit's user invites (`/v2/facts/{p}/{e}/user_invites`, docs/behaviour.md section 25): a record
 * that a user redeems (approve) into a user holding the invite's role: in the invite's tenant, or on
 * its resource instance. No mail is sent: the caller hands the invite to its user.
 */
export class UserInvitesService {
  constructor(
    private readonly store: UserInvitesStore,
    private readonly assignments: Pick<RoleAssignmentsService, 'assignWithin'>,
    private readonly facts: Pick<FactsService, 'getUser'>,
  ) {}

  private view(scope: Scope, i: UserInviteNode) {
    return {
      id: i.id,
      ...scoped(scope),
      created_at: i.created_at,
      updated_at: i.updated_at,
      key: i.key,
      status: i.status,
      email: i.email,
      first_name: i.first_name ?? null,
      last_name: i.last_name ?? null,
      role_id: i.role_id,
      tenant_id: i.tenant_id,
      resource_instance_id: i.resource_instance_id ?? null,
    };
  }

  async create(scope: Scope, input: InviteInput) {
    const instanceId = input.resource_instance_id ?? null;
    return this.store.write(async (tx) => {
      const refs = await this.store.refs(tx, scope.envId, { tenantId: input.tenant_id, roleId: input.role_id, instanceId });
      const details = [
        ...(refs.tenant === null ? [{ path: '/body/tenant_id', message: 'names no tenant of this environment' }] : []),
        ...(refs.role === null ? [{ path: '/body/role_id', message: 'names no role of this environment' }] : []),
        ...(instanceId !== null && refs.instance === null
          ? [{ path: '/body/resource_instance_id', message: 'names no resource instance of this environment' }]
          : []),
      ];
      if (!details.length && instanceId === null && refs.roleResource !== null)
        details.push({ path: '/body/role_id', message: 'a resource role needs resource_instance_id' });
      if (!details.length && instanceId !== null && refs.roleResource !== refs.instanceResource)
        details.push({
          path: '/body/role_id',
          message: `must be a role of the instance's resource ${JSON.stringify(refs.instanceResource)}`,
        });
      if (!details.length && instanceId !== null && refs.instanceTenant !== refs.tenant)
        details.push({ path: '/body/tenant_id', message: "must be the resource instance's tenant" });
      if (details.length) throw invalidInput(`The invite's role cannot be given: ${details.map((d) => d.message).join('; ')}.`, details);
      const made = await this.store.create(tx, scope.envId, {
        id: randomUUID(),
        key: input.key,
        email: input.email,
        firstName: input.first_name ?? null,
        lastName: input.last_name ?? null,
        roleId: input.role_id,
        tenantId: input.tenant_id,
        instanceId,
        nowIso: new Date().toISOString(),
      });
      return this.view(scope, made!);
    });
  }

  async list(scope: Scope, page: Page) {
    const { total, data } = await this.store.list(scope.envId, page);
    return envelopeOf(
      data.map((i) => this.view(scope, i)),
      total,
      page,
    );
  }

  async get(scope: Scope, id: string) {
    const i = await this.store.get(scope.envId, id);
    if (!i) throw notFound('User invite', id);
    return this.view(scope, i);
  }

  async remove(scope: Scope, id: string) {
    if (!(await this.store.delete(scope.envId, id))) throw notFound('User invite', id);
  }

  /**
   * The invite's user redeems it (Permit's approve, `{email, key, attributes}`): in one transaction
   * the invite is approved, the user of its key made (with its email and names and these attributes;
   * an existing user is kept as it is) and given the invite's role. The email and key must be the
   * invite's; an approved invite is a 409. Answers the user (UserRead).
   */
  async approve(scope: Scope, id: string, body: { email: string; key: string; attributes?: Record<string, unknown> }) {
    const invite = await this.store.get(scope.envId, id);
    if (!invite) throw notFound('User invite', id);
    const details = [
      ...(body.key !== invite.key ? [{ path: '/body/key', message: "must be the invite's key" }] : []),
      ...(body.email.toLowerCase() !== invite.email.toLowerCase() ? [{ path: '/body/email', message: "must be the invite's email" }] : []),
    ];
    if (details.length) throw invalidInput(`This invite is not for that user: ${details.map((d) => d.message).join('; ')}.`, details);
    const attributes = toJson(body.attributes ?? {}, '/body/attributes')!;
    await this.store.write(async (tx) => {
      const nowIso = new Date().toISOString();
      const approved = await this.store.redeem(tx, scope.envId, id, nowIso);
      if (!approved) throw invalidState(`User invite ${JSON.stringify(id)} is already approved.`);
      await this.store.createUser(tx, scope.envId, {
        id: randomUUID(),
        key: approved.key,
        email: approved.email,
        firstName: approved.first_name ?? null,
        lastName: approved.last_name ?? null,
        attributes,
        nowIso,
      });
      const refs = await this.store.refs(tx, scope.envId, {
        tenantId: approved.tenant_id,
        roleId: approved.role_id,
        instanceId: approved.resource_instance_id ?? null,
      });
      if (refs.tenant === null || refs.role === null || (approved.resource_instance_id && refs.instance === null))
        throw invalidState(`The role, tenant or instance of user invite ${JSON.stringify(id)} was deleted since it was made.`);
      await this.assignments.assignWithin(tx, scope, [
        {
          user: approved.key,
          role: refs.role,
          tenant: refs.tenant,
          ...(refs.instance !== null ? { resource_instance: `${refs.instanceResource}:${refs.instance}` } : {}),
        },
      ]);
    });
    return this.facts.getUser(scope, invite.key);
  }
}

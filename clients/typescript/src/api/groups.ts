import { type Page, type PageParams, path } from '../http.js';
import type {
  AttachedInstance,
  Group,
  GroupCreate,
  GroupMember,
  GroupResourceInstance,
  GroupRoleAssignment,
  GroupUpdate,
} from '../types.js';
import { SchemaPart } from './base.js';

export interface GroupListParams extends PageParams {
  tenant?: string;
  /** The group type. */
  resource?: string;
  search?: string;
}

/**
 * Groups (docs/behaviour.md section 4): `/v2/schema/{project}/{env}/groups`. A role given to a group
 * reaches its members (and the members of groups assigned into it) and its attached instances.
 */
export class GroupsApi extends SchemaPart {
  private async one(group: string, rest = ''): Promise<string> {
    return this.at(path`/groups/${group}` + rest);
  }

  /** Creates the group (and its group type, a resource with a `member` role, if missing). */
  async create(data: GroupCreate): Promise<Group> {
    return this.http.request('POST', await this.at('/groups'), { body: data });
  }
  async get(group: string): Promise<Group> {
    return this.http.request('GET', await this.one(group));
  }
  async list(params: GroupListParams = {}): Promise<Page<Group>> {
    return this.http.request('GET', await this.at('/groups'), { query: { ...params } });
  }
  async update(group: string, data: GroupUpdate): Promise<Group> {
    return this.http.request('PATCH', await this.one(group), { body: data });
  }
  /** Deletes the group; revokes everything derived through it. */
  async delete(group: string): Promise<void> {
    return this.http.request('DELETE', await this.one(group));
  }

  /** Gives the group `role` on one resource instance (the seed's `POST /group/{key}/roles`). */
  async assignRole(group: string, assignment: GroupRoleAssignment): Promise<Group> {
    return this.http.request('POST', await this.at(path`/group/${group}/roles`), { body: assignment });
  }
  async removeRole(group: string, assignment: GroupRoleAssignment): Promise<void> {
    return this.http.request('DELETE', await this.one(group, '/roles'), { body: assignment });
  }
  async listRoles(group: string, params: PageParams = {}): Promise<Page<GroupRoleAssignment>> {
    return this.http.request('GET', await this.one(group, '/roles'), { query: { ...params } });
  }

  /** Makes `user` a member of the group in `tenant`. */
  async addUser(group: string, user: string, tenant: string): Promise<Group> {
    return this.http.request('PUT', await this.one(group, path`/users/${user}`), { body: { tenant } });
  }
  /** Ends the membership: every role derived through the group is revoked at once. */
  async removeUser(group: string, user: string, tenant?: string): Promise<void> {
    return this.http.request('DELETE', await this.one(group, path`/users/${user}`), tenant === undefined ? {} : { body: { tenant } });
  }
  async listUsers(group: string, params: PageParams = {}): Promise<Page<GroupMember>> {
    return this.http.request('GET', await this.one(group, '/users'), { query: { ...params } });
  }

  /** Makes `group` a member of `parent`: members of `group` gain the roles of `parent` (422 GROUP_CYCLE on a cycle). */
  async assignGroup(group: string, parent: string): Promise<Group> {
    return this.http.request('PUT', await this.one(group, '/assign_group'), { body: { group_instance_key: parent } });
  }
  async removeGroup(group: string, parent: string): Promise<void> {
    return this.http.request('DELETE', await this.one(group, '/assign_group'), { body: { group_instance_key: parent } });
  }
  /** Groups assigned into this group. */
  async listChildren(group: string, params: PageParams = {}): Promise<Page<Group>> {
    return this.http.request('GET', await this.one(group, '/children'), { query: { ...params } });
  }
  /** Groups this group was assigned into. */
  async listParents(group: string, params: PageParams = {}): Promise<Page<Group>> {
    return this.http.request('GET', await this.one(group, '/parents'), { query: { ...params } });
  }

  /** Resource groups: roles held on the group apply to every attached instance. */
  async attachResourceInstance(group: string, instance: GroupResourceInstance): Promise<Group> {
    return this.http.request('PUT', await this.one(group, '/resource_instances'), { body: instance });
  }
  async detachResourceInstance(group: string, instance: GroupResourceInstance): Promise<void> {
    return this.http.request('DELETE', await this.one(group, '/resource_instances'), { body: instance });
  }
  async listResourceInstances(group: string, params: PageParams = {}): Promise<Page<AttachedInstance>> {
    return this.http.request('GET', await this.one(group, '/resource_instances'), { query: { ...params } });
  }
}

import { createHash } from 'node:crypto';
import type { Scope } from '../../auth/types';
import { invalidInput } from '../../errors';
import { SetRules } from '../conditions/rules';
import type { Revisions } from './revisions';
import type { ListedObject, ListObjectsStore } from './listObjectsStore';

/**
 * List-objects (CONTRACT section 13): every instance of a type on which a user may do an action,
 * each once, in key order (keys are unique per type in an environment), paged with an opaque
 * continuation token. Each page is one forward walk from the user (cypher/decisions/listObjects),
 * read from the graph itself, so it sees every acknowledged write (no decision cache).
 */
export interface ListObjectsQuery {
  user: string | { key: string; attributes?: Record<string, unknown> | null };
  context?: Record<string, unknown> | null;
  action: string;
  resource_type: string;
  tenant?: string | null;
  page_size?: number;
  continuation_token?: string | null;
}

export type { ListedObject } from './listObjectsStore';

export const DEFAULT_PAGE_SIZE = 100;

export class ListObjectsService {
  constructor(
    private readonly store: ListObjectsStore,
    private readonly revisions?: Revisions,
    /** Set rules (CONTRACT section 17): the instances they grant are merged in key order. */
    private readonly rules?: SetRules,
  ) {}

  async listObjects(scope: Scope, q: ListObjectsQuery): Promise<{ objects: ListedObject[]; continuation_token: string | null }> {
    const question = {
      user: typeof q.user === 'string' ? q.user : q.user.key,
      action: q.action,
      type: q.resource_type,
      tenant: q.tenant ?? null,
    };
    const fingerprint = fingerprintOf(question);
    const after = q.continuation_token ? afterOf(q.continuation_token, fingerprint) : null;
    const pageSize = q.page_size ?? DEFAULT_PAGE_SIZE;
    // One more than the page tells whether another page follows, without a count.
    const floor = await this.revisions?.floorFor(scope);
    const graph = await this.store.page(scope.envId, { ...question, after, limit: pageSize + 1 }, floor);
    const found = await this.withRules(scope, q, question, after, pageSize + 1, graph, floor);
    const objects = found.slice(0, pageSize);
    const more = found.length > pageSize;
    return { objects, continuation_token: more ? tokenOf(objects[objects.length - 1].key, fingerprint) : null };
  }

  /**
   * Merges the instances set rules grant (each candidate of the type with its stored attributes,
   * the user's overlaid by the ones sent) into the graph's page, in key order, each once.
   */
  private async withRules(
    scope: Scope,
    q: ListObjectsQuery,
    question: { user: string; action: string; type: string; tenant: string | null },
    after: string | null,
    limit: number,
    graph: ListedObject[],
    floor: number | undefined,
  ): Promise<ListedObject[]> {
    if (!this.rules) return graph;
    const rev = this.revisions ? (scope.revision ?? (await this.revisions.latest(scope.envId))) : undefined;
    const compiled = await this.rules.at(scope.envId, rev, floor);
    if (!SetRules.grantsOn(compiled, question.type, question.action)) return graph;
    const [user, candidates] = await Promise.all([
      this.rules.storedUser(scope.envId, question.user, floor),
      this.rules.candidateInstances(scope.envId, [question.type], question.tenant === null ? null : [question.tenant]),
    ]);
    const userAttributes = typeof q.user === 'object' ? (q.user.attributes ?? null) : null;
    const byKey = new Map(graph.map((o) => [o.key, o]));
    for (const i of candidates) {
      if ((after !== null && i.key <= after) || byKey.has(i.key)) continue;
      const verdicts = this.rules.verdicts(
        compiled,
        { user: question.user, action: question.action, type: i.type, key: i.key, tenant: null, userAttributes, context: q.context ?? {} },
        user,
        i,
      );
      if (verdicts.some((v) => v.granted)) byKey.set(i.key, { type: i.type, key: i.key, tenant: i.tenant });
    }
    return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).slice(0, limit);
  }
}

/** A token resumes only the question it was given for: it carries a digest of that question. */
function fingerprintOf(question: { user: string; action: string; type: string; tenant: string | null }): string {
  return createHash('sha256')
    .update(JSON.stringify([question.user, question.action, question.type, question.tenant]))
    .digest('base64url')
    .slice(0, 16);
}

function tokenOf(after: string, fingerprint: string): string {
  return Buffer.from(JSON.stringify({ after, q: fingerprint })).toString('base64url');
}

function afterOf(token: string, fingerprint: string): string {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const t = decoded as { after?: unknown; q?: unknown } | undefined;
  if (!t || typeof t !== 'object' || typeof t.after !== 'string' || typeof t.q !== 'string') {
    throw invalidInput('continuation_token is not a token this endpoint gave.', [
      { path: '/body/continuation_token', message: 'is not a valid continuation token' },
    ]);
  }
  if (t.q !== fingerprint) {
    throw invalidInput('continuation_token belongs to another question (user, action, resource_type or tenant differ).', [
      { path: '/body/continuation_token', message: 'was given for another question' },
    ]);
  }
  return t.after;
}

import { createHash } from 'node:crypto';
import type { Scope } from '../../auth/types';
import { invalidInput } from '../../errors';
import type { DecisionEngine } from './engine';
import type { Asker, Bag, Consistency } from './question';
import type { ListedObject } from './walk';

/**
 * List-objects (docs/decisions.md): every instance of a type on which a user may do an action,
 * each once, in key order (keys are unique per type in an environment), paged with an opaque
 * continuation token. Each page is the engine's `objects` enumeration (the walk from the user and
 * the set rules), read from the graph itself, so it sees every acknowledged write (no decision cache).
 */
export interface ListObjectsQuery extends Asker {
  action: string;
  type: string;
  tenant: string | null;
  context: Bag;
  pageSize: number | null;
  continuationToken: string | null;
}

export type { ListedObject } from './walk';

export const DEFAULT_PAGE_SIZE = 100;

export class ListObjectsService {
  constructor(private readonly engine: DecisionEngine) {}

  async listObjects(
    scope: Scope,
    q: ListObjectsQuery,
    consistency?: Consistency,
  ): Promise<{ objects: ListedObject[]; continuation_token: string | null }> {
    const fingerprint = fingerprintOf(q);
    const after = q.continuationToken ? afterOf(q.continuationToken, fingerprint) : null;
    const pageSize = q.pageSize ?? DEFAULT_PAGE_SIZE;
    // One more than the page tells whether another page follows, without a count.
    const found = await this.engine.enumerate(
      { scope, consistency },
      {
        kind: 'objects',
        user: q.user,
        userAttributes: q.userAttributes,
        action: q.action,
        type: q.type,
        tenant: q.tenant,
        context: q.context,
        after,
        limit: pageSize + 1,
      },
    );
    const objects = found.slice(0, pageSize);
    const more = found.length > pageSize;
    return { objects, continuation_token: more ? tokenOf(objects[objects.length - 1].key, fingerprint) : null };
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

import type { Scope } from '../../auth/types';
import type { ChangeEvent, ChangeStore } from './store';

/** How often a long poll looks again; a write on this replica is seen at the next look. */
const POLL_MS = 200;

export interface ChangesQuery {
  after_revision?: number;
  page_size?: number;
  wait_ms?: number;
}

/**
 * The changes feed (docs/behaviour.md section 12): events after a revision, in revision order, never a
 * transaction split across pages; `next_revision` is where the next call resumes (the same
 * `after_revision` again when nothing came).
 */
export class ChangesService {
  constructor(private readonly store: ChangeStore) {}

  async changes(scope: Scope, q: ChangesQuery): Promise<{ changes: ChangeEvent[]; next_revision: number }> {
    const after = q.after_revision ?? 0;
    const pageSize = q.page_size ?? 100;
    const deadline = Date.now() + (q.wait_ms ?? 0);
    for (;;) {
      const changes = await this.store.list(scope.envId, after, pageSize);
      const left = deadline - Date.now();
      if (changes.length || left <= 0) return { changes, next_revision: changes.length ? changes[changes.length - 1].revision : after };
      await new Promise((r) => setTimeout(r, Math.min(POLL_MS, left)));
    }
  }
}

import { isMissingProcedure } from '../../db/storeErrors';
import type { WalkSelection } from '../../db/walkSelection';

/**
 * A store's helper: runs `run` with the walk extension's statement (cypher/walk/, the same rows)
 * when the extension answers (src/db/walkSelection.ts), else with the Cypher walk's. A Neo4j that
 * lost the extension since the last check (restarted without it) answers ProcedureNotFound: the
 * selection turns to the Cypher walk and the question is asked again of it.
 */
export async function viaWalk<S, R>(walk: WalkSelection | undefined, extension: S, cypher: S, run: (stmt: S) => Promise<R>): Promise<R> {
  if (!walk?.extension) return run(cypher);
  try {
    return await run(extension);
  } catch (err) {
    if (!isMissingProcedure(err)) throw err;
    walk.procedureMissing();
    return run(cypher);
  }
}

import type { Db } from '../../db/db';
import type { RouteDef } from '../../http/routeTable';
import { assignmentRoutes } from './routes';
import { RoleAssignmentsService } from './service';
import { AssignmentsStore } from './store';
import { TuplesService } from './tuplesService';

/** Role assignments and relationship tuples in one call for `areas/index.ts`. */
export function assignmentAreaRoutes(db: Db): RouteDef[] {
  const store = new AssignmentsStore(db);
  return assignmentRoutes(new RoleAssignmentsService(store), new TuplesService(store));
}

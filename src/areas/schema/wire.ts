import type { Db } from '../../db/db';
import type { RouteDef } from '../../http/routeTable';
import { InstancesBulkService, instancesBulkRoutes } from './instancesBulk';
import { InstancesService } from './instancesService';
import { InstancesStore } from './instancesStore';
import { RolesService } from './rolesService';
import { instanceRoutes, schemaRoutes } from './routes';
import { SchemaService } from './service';
import { SchemaStore } from './store';

/** The schema area (resources, roles, relations, derivations, instances) in one call for `areas/index.ts`. */
export function schemaAreaRoutes(db: Db): RouteDef[] {
  const store = new SchemaStore(db);
  return [
    ...schemaRoutes(new SchemaService(store), new RolesService(store)),
    ...instanceRoutes(new InstancesService(new InstancesStore(db), store)),
    ...instancesBulkRoutes(new InstancesBulkService(db)),
  ];
}

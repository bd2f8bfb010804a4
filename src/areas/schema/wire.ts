import type { Db } from '../../db/db';
import type { RouteDef } from '../../http/routeTable';
import { ActionsService } from './actionsService';
import { HierarchyService } from './hierarchyService';
import { HierarchyStore } from './hierarchyStore';
import { InstancesBulkService, instancesBulkRoutes } from './instancesBulk';
import { InstancesService } from './instancesService';
import { InstancesStore } from './instancesStore';
import { ResourceRoleExtras } from './resourceRoleExtras';
import { roleExtrasRoutes } from './roleExtrasRoutes';
import { RolesService } from './rolesService';
import { instanceRoutes, schemaRoutes } from './routes';
import { SchemaService } from './service';
import { SchemaStore } from './store';

/** The schema area (resources, roles, relations, derivations, instances) in one call for `areas/index.ts`. */
export function schemaAreaRoutes(db: Db): RouteDef[] {
  const store = new SchemaStore(db);
  const hierarchy = new HierarchyService(new HierarchyStore(db), store);
  const schema = new SchemaService(store, hierarchy);
  const roles = new RolesService(store, hierarchy, db.statement('schema/changeRolePermissions'));
  return [
    ...schemaRoutes(schema, roles),
    ...roleExtrasRoutes(schema, roles, hierarchy, new ResourceRoleExtras(db, store, hierarchy), new ActionsService(store)),
    ...instanceRoutes(new InstancesService(new InstancesStore(db), store)),
    ...instancesBulkRoutes(new InstancesBulkService(db)),
  ];
}

import { defineModule } from '../../platform/module';
import { workspaceRoutes } from './workspaces.routes';
import * as tables from './workspaces.tables';

/** Workspaces, members, invitations, groups, resource sharing. */
export const workspacesModule = defineModule({ name: 'workspaces', routes: [workspaceRoutes], tables });

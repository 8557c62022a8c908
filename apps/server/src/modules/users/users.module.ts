import { defineModule } from '../../platform/module';
import * as tables from './users.tables';

/** The user rows every module reads (what an account shows and does is the account module's). */
export const usersModule = defineModule({ name: 'users', tables });

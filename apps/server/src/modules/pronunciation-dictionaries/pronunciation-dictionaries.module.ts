import { defineModule } from '../../platform/module';
import { pronunciationDictionaryRoutes } from './pronunciation-dictionaries.routes';
import { defaultLocators } from './pronunciation-dictionaries.service';
import * as tables from './pronunciation-dictionaries.tables';

/** Pronunciation dictionaries: alias and phoneme rules in immutable versions, and the workspace's defaults. */
export const pronunciationDictionariesModule = defineModule({
  name: 'pronunciation-dictionaries',
  routes: [pronunciationDictionaryRoutes],
  tables,
  workspaceFields: async (db, workspaceId) => ({
    pronunciation_dictionary_locators: await defaultLocators({ db }, { workspaceId }),
  }),
});

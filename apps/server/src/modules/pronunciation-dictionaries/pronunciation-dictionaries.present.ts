import type { AddDictionaryResponse, DictionaryMetadata, DictionaryRulesResponse } from '@parla/contracts';
import type {
  PronunciationDictionaryRow,
  PronunciationDictionaryVersionRow,
} from './pronunciation-dictionaries.tables';

const unix = (date: Date) => Math.floor(date.getTime() / 1000);

/** Every member reads and edits the workspace's dictionaries: its maker is their admin, others editors. */
const permission = (row: PronunciationDictionaryRow, callerId: string) =>
  row.createdBy === callerId ? ('admin' as const) : ('editor' as const);

/** `AddPronunciationDictionaryResponseModel`. */
export function toAddResponse(row: PronunciationDictionaryRow, callerId: string): AddDictionaryResponse {
  return {
    id: row.id,
    name: row.name,
    created_by: row.createdBy,
    creation_time_unix: unix(row.createdAt),
    version_id: row.latestVersionId,
    version_rules_num: row.latestRulesNum,
    description: row.description,
    permission_on_resource: permission(row, callerId),
  };
}

/** `GetPronunciationDictionaryMetadataResponse`. */
export function toMetadata(row: PronunciationDictionaryRow, callerId: string): DictionaryMetadata {
  return {
    id: row.id,
    latest_version_id: row.latestVersionId,
    latest_version_rules_num: row.latestRulesNum,
    name: row.name,
    permission_on_resource: permission(row, callerId),
    created_by: row.createdBy,
    creation_time_unix: unix(row.createdAt),
    archived_time_unix: row.archivedAt ? unix(row.archivedAt) : null,
    description: row.description,
  };
}

/** `PronunciationDictionaryRulesResponseModel`. */
export function toRulesResponse(version: PronunciationDictionaryVersionRow): DictionaryRulesResponse {
  return { id: version.dictionaryId, version_id: version.id, version_rules_num: version.rulesNum };
}

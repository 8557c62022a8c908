import type { StoredModel } from '@parla/contracts';
import type { ModelStatus } from '../../platform/models/model-store';

/** A model of the store as `GET /v1/model-store` shows it: no paths, no hashes. */
export function presentStoredModel(status: ModelStatus): StoredModel {
  const sources = new Map<string, StoredModel['sources'][number]>();
  for (const file of status.entry.files)
    for (const piece of file.from) {
      const { kind, name, version } = piece.package;
      sources.set(`${kind}:${name}@${version}`, { kind, name, version });
    }
  return {
    id: status.id,
    name: status.entry.name,
    feature: status.entry.feature,
    available: status.available,
    reason: status.reason,
    size_bytes: status.sizeBytes,
    file_count: status.entry.files.length,
    licence: { spdx: status.entry.licence.spdx, attribution: status.entry.licence.attribution },
    sources: [...sources.values()],
    upstream: status.entry.upstream,
  };
}

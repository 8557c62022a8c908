import { useId } from 'react';
import { getToastMessage, isHttpError } from '../../../lib/http-error';
import { Badge } from '../../../ui/badge';
import { useChapterAcx } from '../api/studio-api';

/**
 * The ACX check of the chapter's last conversion (issue 30 item 2: RMS −23 to −18 dB, peaks ≤ −3 dB, noise
 * floor ≤ −60 dB). Shown only once the chapter has audio; the server's words when it cannot answer.
 */
export function AcxReportPanel({
  projectId,
  chapterId,
  snapshotId,
}: {
  projectId: string;
  chapterId: string;
  snapshotId: string | null;
}) {
  const id = useId();
  const acx = useChapterAcx(projectId, chapterId, snapshotId);
  if (snapshotId === null) return null;
  const rows = acx.data
    ? [
        { name: 'Loudness (RMS)', value: acx.data.rms_db, rule: '−23 to −18 dB', pass: acx.data.passes.rms },
        { name: 'Peaks', value: acx.data.peak_db, rule: '−3 dB or lower', pass: acx.data.passes.peak },
        {
          name: 'Noise floor',
          value: acx.data.noise_floor_db,
          rule: '−60 dB or lower',
          pass: acx.data.passes.noise_floor,
        },
      ]
    : [];
  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-2">
      <h3 id={`${id}-heading`} className="flex items-center gap-2 text-sm font-semibold">
        ACX check
        {acx.data && (
          <Badge tone={acx.data.pass ? 'success' : 'warning'}>
            {acx.data.pass ? 'Passes' : 'Does not pass'}
          </Badge>
        )}
      </h3>
      {acx.isPending ? (
        <p className="text-sm text-fg-muted">Measuring…</p>
      ) : acx.isError ? (
        <p className="text-sm text-fg-muted">
          {isHttpError(acx.error) && acx.error.status === 404
            ? 'No report for this chapter yet.'
            : getToastMessage(acx.error)}
        </p>
      ) : (
        <>
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-fg-muted">
              <tr>
                <th className="py-1 font-medium">Measure</th>
                <th className="py-1 font-medium">Value</th>
                <th className="py-1 font-medium">ACX asks</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.name} className="border-line border-t">
                  <td className="py-1">{row.name}</td>
                  <td className={row.pass ? 'py-1' : 'py-1 text-danger'}>
                    {row.value.toFixed(1)} dB {row.pass ? '' : '(fails)'}
                  </td>
                  <td className="py-1 text-fg-muted">{row.rule}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {acx.data?.normalized && (
            <p className="text-xs text-fg-muted">The audio was normalised for ACX when it was converted.</p>
          )}
        </>
      )}
    </section>
  );
}

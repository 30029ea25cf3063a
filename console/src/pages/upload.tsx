import { type FormEvent, useEffect, useState } from 'react';
import { isTimeZone } from '../../../src/lib/time-zone.ts';
import { proposeColumns } from '../../../src/modules/timeseries/import/csv-dialect.ts';
import { authorizedFetch } from '../api/client.ts';
import { formatNumber } from '../lib/format.ts';
import { useOrganization } from '../organization.tsx';
import { ColumnMapFields, dialectOf, type FileOptions } from '../upload/column-map.tsx';
import { type FileHead, fileHead } from '../upload/csv-preview.ts';
import {
  failureReport,
  READINGS_PATH,
  successReport,
  type UploadProgress,
  uploadReadings,
} from '../upload/upload-readings.ts';

type Outcome = { ok: true; lines: string[] } | { ok: false; lines: string[] };

/** The browser's time zone: the default zone of a file's local times. */
const BROWSER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
/** The zones the browser knows, offered as the field's suggestions. */
const TIME_ZONES: readonly string[] = Intl.supportedValuesOf?.('timeZone') ?? [];

const post = (body: string) =>
  authorizedFetch(
    new Request(`${window.location.origin}${READINGS_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    }),
  );

/** A readings CSV file sent to the readings endpoint in batches, with a progress bar. */
export function UploadPage() {
  const { current, canWrite } = useOrganization();
  const [file, setFile] = useState<File | null>(null);
  const [timeZone, setTimeZone] = useState(BROWSER_TIME_ZONE);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [head, setHead] = useState<FileHead | null>(null);
  const [options, setOptions] = useState<FileOptions | null>(null);

  const choose = async (chosen: File | null) => {
    setFile(chosen);
    setOutcome(null);
    const read = chosen ? await fileHead(chosen) : null;
    setHead(read);
    setOptions(
      read && { columns: proposeColumns(read.names), dateFormat: 'ISO', delimiter: '', decimal: '.', meterSn: '' },
    );
  };

  useEffect(() => {
    document.title = 'Upload readings · Utility Management Console';
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    const zone = timeZone.trim();
    if (zone !== '' && !isTimeZone(zone)) {
      setOutcome({ ok: false, lines: [`"${zone}" is not a time zone: an IANA name such as Africa/Johannesburg.`] });
      return;
    }
    setBusy(true);
    setOutcome(null);
    setProgress({ bytes: 0, total: file.size, readings: 0 });
    try {
      const summary = await uploadReadings({
        accountId: current.id,
        file,
        timeZone: zone === '' ? undefined : zone,
        ...(options ? { dialect: dialectOf(options) } : {}),
        post,
        onProgress: setProgress,
      });
      setOutcome({ ok: true, lines: [successReport(summary, file.name)] });
    } catch (error) {
      setOutcome({ ok: false, lines: failureReport(error) });
    } finally {
      setBusy(false);
    }
  };

  const percent = progress && progress.total > 0 ? Math.round((progress.bytes / progress.total) * 100) : 0;

  return (
    <>
      <h1>Upload readings</h1>
      <p>
        A CSV file of interval readings of electricity meters of <strong>{current.name}</strong>. Its first line names
        the columns: <code>meter_sn</code>, <code>ts</code> (the start of the interval, ISO 8601),{' '}
        <code>import_kwh</code>, and optionally <code>export_kwh</code>, <code>kvarh</code>, <code>power_kw</code>,{' '}
        <code>kva</code>. Times written without a UTC offset, as spreadsheets write them (<code>2026-11-25 08:00</code>
        ), are read in the time zone below; times with an offset keep theirs. A spreadsheet's file with other columns
        (Meter, Date, Time, kWh, kVArh, Reading), semicolons, decimal commas or other date formats is read once its
        columns are mapped below: the first lines show as they will be read.
      </p>
      <p className="muted">
        The file is sent in batches, each stored whole or not at all. The upload stops at the first bad line or refused
        batch; what was stored before stays, and uploading the fixed file again completes it (readings already stored
        are replaced, never doubled).
      </p>
      {!canWrite && (
        <p className="error" role="note">
          Your role in this organization ({current.role.toLowerCase()}) may read but not upload readings.
        </p>
      )}
      <form onSubmit={submit} className="row">
        <div>
          <label htmlFor="readings-file">Readings file (CSV)</label>
          <input
            id="readings-file"
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => choose(e.target.files?.[0] ?? null)}
            disabled={busy}
          />
        </div>
        <div>
          <label htmlFor="readings-time-zone">Time zone of local times</label>
          <input
            id="readings-time-zone"
            list="time-zones"
            value={timeZone}
            onChange={(e) => setTimeZone(e.target.value)}
            placeholder="e.g. Africa/Johannesburg"
            disabled={busy}
          />
          <datalist id="time-zones">
            {TIME_ZONES.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        </div>
        <button type="submit" disabled={!file || busy || !canWrite}>
          {busy ? 'Uploading…' : 'Upload'}
        </button>
      </form>
      {head && options && (
        <ColumnMapFields
          head={head}
          options={options}
          timeZone={timeZone.trim() === '' ? undefined : timeZone.trim()}
          onChange={setOptions}
          disabled={busy}
        />
      )}
      {progress && (
        <div style={{ marginTop: '1rem' }}>
          <label htmlFor="upload-progress">Progress</label>
          <progress id="upload-progress" max={100} value={percent} aria-valuetext={`${percent}%`} />
          <p className="muted" aria-live="polite" data-testid="upload-progress-text">
            {percent}% · {formatNumber(progress.readings, 0)} readings stored
          </p>
        </div>
      )}
      {outcome && (
        <div
          className={outcome.ok ? 'success' : 'error'}
          role={outcome.ok ? 'status' : 'alert'}
          data-testid="upload-outcome"
        >
          {outcome.lines.map((line) => (
            <p key={line} style={{ margin: '0.25rem 0' }}>
              {line}
            </p>
          ))}
        </div>
      )}
    </>
  );
}

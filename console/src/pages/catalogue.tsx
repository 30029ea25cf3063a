import { type FormEvent, useEffect, useState } from 'react';
import { api, envelope } from '../api/client.ts';
import type { Meter, Tariff } from '../api/models.ts';
import { CloneButton } from '../components/clone-button.tsx';
import { Async } from '../components/status.tsx';
import { TariffTable } from '../components/tariff-table.tsx';
import { METER_TYPES, meterTypeLabel } from '../lib/labels.ts';
import { setQuery, useLocation } from '../lib/router.tsx';
import { useResource } from '../lib/use-resource.ts';

const TYPES = ['FLAT', 'TIME_OF_USE', 'BLOCK', 'DYNAMIC'] as const;
type TariffType = (typeof TYPES)[number];
type MeterType = Meter['meter_type'];

/** The catalogue: searched by name or description (fuzzy), type and meter type (electricity, water…); each tariff can be cloned. */
export function CataloguePage() {
  const { query } = useLocation();
  const text = query.get('query') ?? '';
  const type = TYPES.find((t) => t === query.get('tariff_type'));
  const [draft, setDraft] = useState(text);
  const [draftType, setDraftType] = useState<TariffType | ''>(type ?? '');
  const meterType = METER_TYPES.find((t) => t === query.get('meter_type'));
  const [draftMeterType, setDraftMeterType] = useState<MeterType | ''>(meterType ?? '');
  const results = useResource(
    () =>
      envelope<Tariff[]>(
        api.GET('/api/v1/tariffs/catalogue', {
          params: {
            query: {
              limit: 50,
              ...(text ? { query: text } : { sortBy: 'name', sortOrder: 'asc' }),
              ...(type ? { tariff_type: type } : {}),
              ...(meterType ? { meter_type: meterType } : {}),
            },
          },
        }),
      ),
    [text, type, meterType],
  );
  useEffect(() => {
    document.title = 'Catalogue · Utility Management Console';
  }, []);

  const search = (event: FormEvent) => {
    event.preventDefault();
    setQuery({
      query: draft.trim() || undefined,
      tariff_type: draftType || undefined,
      meter_type: draftMeterType || undefined,
    });
  };

  return (
    <>
      <h1>Tariff catalogue</h1>
      <p>Published tariffs, read-only: clone one to use and change it in your organization.</p>
      <search>
        <form className="row" onSubmit={search}>
          <div>
            <label htmlFor="catalogue-query">Search</label>
            <input id="catalogue-query" type="search" value={draft} onChange={(e) => setDraft(e.target.value)} />
          </div>
          <div>
            <label htmlFor="catalogue-type">Type</label>
            <select
              id="catalogue-type"
              value={draftType}
              onChange={(e) => setDraftType(e.target.value as TariffType | '')}
            >
              <option value="">Any</option>
              {TYPES.map((t) => (
                <option key={t} value={t}>
                  {t.replaceAll('_', ' ').toLowerCase()}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="catalogue-meter-type">Meter type</label>
            <select
              id="catalogue-meter-type"
              value={draftMeterType}
              onChange={(e) => setDraftMeterType(e.target.value as MeterType | '')}
            >
              <option value="">Any</option>
              {METER_TYPES.map((t) => (
                <option key={t} value={t}>
                  {meterTypeLabel(t)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit">Search</button>
        </form>
      </search>
      <Async resource={results} label="Searching…">
        {({ data, count }) => (
          <>
            <p className="muted" role="status">
              {count} {count === 1 ? 'tariff' : 'tariffs'}
              {text && ` matching “${text}”`}
            </p>
            {data.length > 0 && (
              <TariffTable
                tariffs={data}
                hrefOf={(t) => `/catalogue/${t.id}`}
                caption="Catalogue tariffs"
                action={(t) => <CloneButton tariff={t} compact />}
              />
            )}
          </>
        )}
      </Async>
    </>
  );
}

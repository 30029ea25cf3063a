import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { api, read } from './api/client.ts';
import type { Organization, Tariff } from './api/models.ts';
import { Async } from './components/status.tsx';
import { browserTimeZone, isTimeZone } from './lib/time.ts';
import { useResource } from './lib/use-resource.ts';

/** The organization the console shows, and the time zone its charts and months are in. */
interface OrganizationState {
  organizations: Organization[];
  current: Organization;
  /** The zone the reader chose, else the zone of the organization's tariffs, else the browser's (extensions §11.8). */
  tz: string;
  /** The zone of the organization's tariffs (else the browser's): the default. */
  tariffZone: string;
  /** Shows times in a zone (null: the default again), remembered in this browser. */
  chooseZone(tz: string | null): void;
  select(id: string): void;
  /** Loads the organizations again (after one was created or renamed). */
  reload(): void;
  /** Reads the zone of the organization's tariffs again, after a tariff was created or cloned. */
  tariffsChanged(): void;
  canWrite: boolean;
}

const OrganizationContext = createContext<OrganizationState | null>(null);
const SELECTED_KEY = 'ums.account_id';
const zoneKey = (accountId: string) => `ums.tz.${accountId}`;

export function useOrganization(): OrganizationState {
  const state = useContext(OrganizationContext);
  if (!state) throw new Error('useOrganization outside OrganizationProvider');
  return state;
}

/** The organization remembered in this tab, else the first that is not a personal account. */
function initialChoice(organizations: Organization[]): Organization | undefined {
  const remembered = sessionStorage.getItem(SELECTED_KEY);
  return (
    organizations.find((o) => o.id === remembered) ??
    organizations.find((o) => !o.is_personal_account) ??
    organizations[0]
  );
}

/** The most common time zone of the organization's tariffs. */
async function tariffTimeZone(accountId: string): Promise<string> {
  const tariffs = await read<Tariff[]>(
    api.GET('/api/v1/tariffs', { params: { query: { account_id: accountId, limit: 100 } } }),
  );
  const counts = new Map<string, number>();
  for (const { timezone } of tariffs) if (isTimeZone(timezone)) counts.set(timezone, (counts.get(timezone) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? browserTimeZone();
}

function WithZone({
  organizations,
  current,
  select,
  reload,
  children,
}: {
  organizations: Organization[];
  current: Organization;
  select: (id: string) => void;
  reload: () => void;
  children: ReactNode;
}) {
  const zone = useResource(() => tariffTimeZone(current.id), [current.id]);
  const [chosenZone, setChosenZone] = useState(() => localStorage.getItem(zoneKey(current.id)));
  const chooseZone = useCallback(
    (tz: string | null) => {
      if (tz === null) localStorage.removeItem(zoneKey(current.id));
      else localStorage.setItem(zoneKey(current.id), tz);
      setChosenZone(tz);
    },
    [current.id],
  );
  const state = useMemo(
    () =>
      zone.data
        ? {
            organizations,
            current,
            tz: chosenZone !== null && isTimeZone(chosenZone) ? chosenZone : zone.data,
            tariffZone: zone.data,
            chooseZone,
            select,
            reload,
            tariffsChanged: zone.reload,
            canWrite: current.role === 'OWNER' || current.role === 'ADMIN',
          }
        : null,
    [organizations, current, zone.data, zone.reload, chosenZone, chooseZone, select, reload],
  );
  return (
    <Async resource={zone} label="Loading the organization…">
      {() => <OrganizationContext.Provider value={state!}>{children}</OrganizationContext.Provider>}
    </Async>
  );
}

export function OrganizationProvider({ children }: { children: ReactNode }) {
  const organizations = useResource(() => read<Organization[]>(api.GET('/api/v1/auth/organizations')), []);
  const [chosen, setChosen] = useState<string | null>(null);
  const select = useCallback((id: string) => {
    sessionStorage.setItem(SELECTED_KEY, id);
    setChosen(id);
  }, []);

  return (
    <Async resource={organizations} label="Loading your organizations…">
      {(list) => {
        const current = list.find((o) => o.id === chosen) ?? initialChoice(list);
        if (!current) return <p>You are not a member of any organization.</p>;
        return (
          <WithZone
            key={current.id}
            organizations={list}
            current={current}
            select={select}
            reload={organizations.reload}
          >
            {children}
          </WithZone>
        );
      }}
    </Async>
  );
}

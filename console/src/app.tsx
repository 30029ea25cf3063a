import { lazy, type ReactNode, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { session } from './api/session.ts';
import { DisplaySettings } from './components/display-settings.tsx';
import { Loading } from './components/status.tsx';
import { locale, subscribeLocale } from './lib/locale.ts';
import { Link, match, navigate, useLocation } from './lib/router.tsx';
import { OrganizationProvider, useOrganization } from './organization.tsx';
import { BuildingsPage } from './pages/buildings.tsx';
import { CataloguePage } from './pages/catalogue.tsx';
import { MeterPage } from './pages/meter.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { TariffPage } from './pages/tariff.tsx';
import { TariffsPage } from './pages/tariffs.tsx';
import { UploadPage } from './pages/upload.tsx';
import {
  DashboardConfigPage,
  EditBlockPage,
  EditMeterPage,
  EditTariffPage,
  GatewaysPage,
  NewBlockPage,
  NewMeterPage,
  NewOrganizationPage,
  NewTariffPage,
  OrganizationPage,
} from './setup/lazy-pages.tsx';

// The decision pages load when first opened: the first page's bundle stays small.
const ComparePage = lazy(() => import('./pages/compare.tsx').then((m) => ({ default: m.ComparePage })));
const InvoicesPage = lazy(() => import('./pages/invoices.tsx').then((m) => ({ default: m.InvoicesPage })));
const InvoicePage = lazy(() => import('./pages/invoice.tsx').then((m) => ({ default: m.InvoicePage })));
const RecoveryPage = lazy(() => import('./pages/recovery.tsx').then((m) => ({ default: m.RecoveryPage })));

const NAV = [
  { href: '/buildings', label: 'Buildings', section: /^\/(buildings|meters)/ },
  { href: '/tariffs', label: 'Tariffs', section: /^\/tariffs/ },
  { href: '/catalogue', label: 'Catalogue', section: /^\/catalogue/ },
  { href: '/upload', label: 'Upload readings', section: /^\/upload/ },
  { href: '/gateways', label: 'Gateways', section: /^\/gateways/ },
  { href: '/compare', label: 'Compare tariffs', section: /^\/compare/ },
  { href: '/invoices', label: 'Invoices', section: /^\/invoices/ },
  { href: '/recovery', label: 'Tenant recovery', section: /^\/recovery/ },
  { href: '/organization', label: 'Organization', section: /^\/organization/ },
];

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

type Params = Record<string, string>;

/** The console's pages by path (the service answers every such path with the console). */
const PAGES: [string, (params: Params) => ReactNode][] = [
  ['/', () => <Redirect to="/buildings" />],
  ['/sign-in', () => <Redirect to="/buildings" />],
  ['/sign-up', () => <Redirect to="/buildings" />],
  ['/buildings', () => <BuildingsPage />],
  ['/buildings/new', () => <NewBlockPage />],
  ['/buildings/:id/edit', ({ id }) => <EditBlockPage id={Number(id)} />],
  ['/buildings/:id/meters/new', ({ id }) => <NewMeterPage blockId={Number(id)} />],
  ['/buildings/:id/dashboard', ({ id }) => <DashboardConfigPage blockId={Number(id)} />],
  ['/buildings/:id', ({ id }) => <BuildingsPage id={id} />],
  ['/meters/:id/edit', ({ id }) => <EditMeterPage id={Number(id)} />],
  ['/meters/:id', ({ id }) => <MeterPage id={Number(id)} />],
  ['/tariffs', () => <TariffsPage />],
  ['/tariffs/new', () => <NewTariffPage />],
  ['/tariffs/:id/edit', ({ id }) => <EditTariffPage id={Number(id)} />],
  // Keyed: a clone goes from the catalogue tariff's page to its copy's, which starts afresh (never
  // reads the catalogue tariff as the organization's).
  ['/tariffs/:id', ({ id }) => <TariffPage key={`organization ${id}`} id={Number(id)} source="organization" />],
  ['/catalogue', () => <CataloguePage />],
  ['/catalogue/:id', ({ id }) => <TariffPage key={`catalogue ${id}`} id={Number(id)} source="catalogue" />],
  ['/upload', () => <UploadPage />],
  ['/gateways', () => <GatewaysPage />],
  ['/compare', () => <ComparePage />],
  ['/invoices', () => <InvoicesPage />],
  ['/invoices/:id', ({ id }) => <InvoicePage id={Number(id)} />],
  ['/recovery', () => <RecoveryPage />],
  ['/organization', () => <OrganizationPage />],
  ['/organizations/new', () => <NewOrganizationPage />],
];

function Page({ path }: { path: string }) {
  for (const [pattern, render] of PAGES) {
    const params = match(pattern, path);
    if (params) return <Suspense fallback={<Loading label="Loading the page…" />}>{render(params)}</Suspense>;
  }
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is no page at {path}. <Link href="/buildings">Go to the buildings</Link>.
      </p>
    </>
  );
}

function OrganizationSwitcher() {
  const { organizations, current, select } = useOrganization();
  return (
    <div>
      <label htmlFor="organization" className="visually-hidden">
        Organization
      </label>
      <select id="organization" value={current.id} onChange={(e) => select(e.target.value)}>
        {organizations.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name} ({o.role.toLowerCase()})
          </option>
        ))}
      </select>
    </div>
  );
}

function Shell() {
  const { path } = useLocation();
  const { current } = useOrganization();
  const email = session.user()?.email;
  const tag = useSyncExternalStore(subscribeLocale, locale);

  // After a navigation, focus the page so that keyboard and screen reader users start at its top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs on every navigation.
  useEffect(() => {
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [path]);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <div className="top-inner">
          <Link className="brand" href="/buildings">
            Utility Console
          </Link>
          <nav aria-label="Main" style={{ display: 'contents' }}>
            <ul className="nav">
              {NAV.map((item) => (
                <li key={item.href}>
                  <Link href={item.href} aria-current={item.section.test(path) ? 'page' : undefined}>
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className="account">
            <OrganizationSwitcher />
            <DisplaySettings />
            <span className="muted">{email}</span>
            <button type="button" className="secondary" onClick={() => void session.signOut()}>
              Sign out
            </button>
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Page key={`${current.id} ${tag}`} path={path} />
      </main>
    </>
  );
}

export function App() {
  const user = useSyncExternalStore(session.subscribe, session.user);
  const [restoring, setRestoring] = useState(true);
  const { path } = useLocation();

  useEffect(() => {
    session.restore().finally(() => setRestoring(false));
  }, []);

  if (restoring) return <Loading label="Starting…" />;
  if (!user) return <SignInPage mode={path === '/sign-up' ? 'sign-up' : 'sign-in'} />;
  return (
    <OrganizationProvider>
      <Shell />
    </OrganizationProvider>
  );
}

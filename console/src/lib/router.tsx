import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from 'react';

/** A small router over the History API: the console has a handful of pages and needs no more. */

const NAVIGATED = 'console:navigated';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATED, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATED, onChange);
  };
}

const currentUrl = () => window.location.pathname + window.location.search;

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === currentUrl()) return;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATED));
  if (!options.replace) window.scrollTo(0, 0);
}

/** The current path and query; re-renders on every navigation. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const url = useSyncExternalStore(subscribe, currentUrl);
  const [path = '/', search = ''] = url.split('?');
  return { path, query: new URLSearchParams(search) };
}

/** Replaces some query parameters of the current page (undefined removes one). */
export function setQuery(values: Record<string, string | undefined>): void {
  const query = new URLSearchParams(window.location.search);
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) query.delete(key);
    else query.set(key, value);
  }
  const search = query.toString();
  navigate(`${window.location.pathname}${search ? `?${search}` : ''}`, { replace: true });
}

/** The parameters of a path matching a pattern such as /meters/:id, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const source = pattern.replace(/:(\w+)/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const found = new RegExp(`^${source}/?$`).exec(path);
  if (!found) return null;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1]!)]));
}

/** A link that navigates without reloading the page (a modified click opens it as usual). */
export function Link({ href, onClick, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={follow} {...props} />;
}

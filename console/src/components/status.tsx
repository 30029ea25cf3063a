import type { ReactNode } from 'react';
import type { Resource } from '../lib/use-resource.ts';
import { plainMessage } from '../setup/plain-message.ts';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="status" role="status">
      {label}
    </p>
  );
}

export function ErrorMessage({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  return (
    <div className="error" role="alert">
      <p style={{ margin: 0 }}>{plainMessage(error)}</p>
      {onRetry && (
        <button type="button" className="secondary" onClick={onRetry} style={{ marginTop: '0.5rem' }}>
          Try again
        </button>
      )}
    </div>
  );
}

/** A resource's loading and error states, and its data once ready. */
export function Async<T>({
  resource,
  label,
  children,
}: {
  resource: Resource<T>;
  label?: string;
  children: (data: T) => ReactNode;
}) {
  if (resource.status === 'loading') return <Loading label={label} />;
  if (resource.status === 'failed') return <ErrorMessage error={resource.error} onRetry={resource.reload} />;
  return <>{children(resource.data)}</>;
}

import { useOrganization } from '../organization.tsx';

/** What a printed statement says at its top: the organization, what it is about, and its period. */
export function StatementHeader({ title, subject, period }: { title: string; subject: string; period: string }) {
  const { current } = useOrganization();
  return (
    <div className="statement-header print-only" data-testid="statement-header">
      <strong>{current.name}</strong>
      <div>{title}</div>
      <div>
        {subject} · {period}
      </div>
    </div>
  );
}

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

/** A statement's period as data attributes, for whoever reads the page by machine (tests, scripts). */
export const periodAttributes = ({ start, end }: { start: string; end: string }) => ({
  'data-start': start,
  'data-end': end,
});

import { type ReactNode, useEffect } from 'react';
import type { BuildingBlock } from '../api/models.ts';
import { Async } from '../components/status.tsx';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';
import { blocksOf } from './blocks.ts';

/** A decision page: its title and what it answers, then its form over the organization's buildings. */
export function DecisionPage({
  title,
  intro,
  children,
}: {
  title: string;
  intro: string;
  children: (blocks: BuildingBlock[]) => ReactNode;
}) {
  const { current } = useOrganization();
  const blocks = useResource(() => blocksOf(current.id), [current.id]);
  useEffect(() => {
    document.title = `${title} · Utility Management Console`;
  }, [title]);
  return (
    <>
      <h1 className="no-print">{title}</h1>
      <p className="muted no-print">{intro}</p>
      <Async resource={blocks} label="Loading the buildings…">
        {children}
      </Async>
    </>
  );
}

import { type FormEvent, useState } from 'react';
import type { BuildingBlock } from '../api/models.ts';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';
import { firstRoot } from './blocks.ts';
import { type DecisionChoice, defaultChoice, periodOf } from './period-fields.tsx';

/** What a decision asks the API: the organization, block, source and period, and any candidate tariffs. */
export interface DecisionRequest {
  accountId: string;
  blockId: number;
  source: DecisionChoice['source'];
  start: string;
  end: string;
  tariffIds: number[];
}

/**
 * A decision form's state: the choice (the block given, else the first site; the grid; the last months by default), why
 * a choice is refused, and the answer once asked (none before).
 */
export function useDecision<T>(
  blocks: BuildingBlock[],
  run: (request: DecisionRequest) => Promise<T>,
  blockId: number | undefined = firstRoot(blocks),
) {
  const { current, tz } = useOrganization();
  const [choice, setChoice] = useState(() => defaultChoice(blockId, tz));
  const [invalid, setInvalid] = useState<string | null>(null);
  const [request, setRequest] = useState<DecisionRequest | null>(null);
  const result = useResource(() => (request ? run(request) : Promise.resolve(null)), [request]);
  const submit = (event: FormEvent, tariffIds: number[] = []) => {
    event.preventDefault();
    const period = periodOf(choice, tz);
    if (typeof period === 'string') {
      setInvalid(period);
      return;
    }
    setInvalid(null);
    setRequest({ accountId: current.id, blockId: Number(choice.blockId), source: choice.source, ...period, tariffIds });
  };
  const block = blocks.find((b) => b.id === request?.blockId);
  return { choice, setChoice, invalid, request, result, submit, block };
}

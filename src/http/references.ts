import type { Executor } from '../db/types.ts';
import { badRequest, formatIssues } from './errors.ts';

/** A record that a request body names by id. */
export interface Reference<Kind extends string> {
  /** What the record is, for the error text ('Meter'). */
  kind: Kind;
  /** Where the id sits in the request body. */
  path: (string | number)[];
  id: number;
}

/**
 * Which of ids are records of the organization, each locked until the transaction ends so that a
 * concurrent delete cannot remove it before the naming row is written (arrays such as
 * submeter_ids have no foreign key to do it). Each feature answers for its own records.
 */
type ReferenceLookup = (tx: Executor, accountId: string, ids: number[]) => Promise<number[]>;

/** 400 naming every reference that is not a record of the organization (unknown or another organization's). */
export async function assertReferencesExist<Kind extends string>(
  tx: Executor,
  accountId: string,
  references: readonly Reference<Kind>[],
  lookups: Readonly<Record<Kind, ReferenceLookup>>,
): Promise<void> {
  const issues: { path: (string | number)[]; message: string }[] = [];
  for (const kind of new Set(references.map((r) => r.kind))) {
    const ofKind = references.filter((r) => r.kind === kind);
    const found = new Set(
      await lookups[kind](
        tx,
        accountId,
        ofKind.map((r) => r.id),
      ),
    );
    for (const r of ofKind) {
      if (!found.has(r.id)) issues.push({ path: r.path, message: `${kind} ${r.id} not found in this organization` });
    }
  }
  if (issues.length > 0) throw badRequest(formatIssues(issues, 'body'));
}

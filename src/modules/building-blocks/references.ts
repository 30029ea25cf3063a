import type { Executor } from '../../db/types.ts';
import { badRequest, formatIssues } from '../../http/errors.ts';

// Records another record may name. Each lookup locks the rows it finds until the transaction ends,
// so a concurrent delete cannot remove them before the naming row is written (arrays such as
// submeter_ids have no foreign key to do it).
const LOOKUPS = {
  'Building block': 'SELECT id FROM building_blocks WHERE account_id = $1 AND id = ANY($2::int[]) FOR SHARE',
  Meter: 'SELECT id FROM meters WHERE account_id = $1 AND id = ANY($2::int[]) FOR SHARE',
  Tariff: 'SELECT id FROM tariffs WHERE account_id = $1 AND id = ANY($2::int[]) AND deleted_at IS NULL FOR SHARE',
} as const;

export interface Reference {
  kind: keyof typeof LOOKUPS;
  /** Where the id sits in the request body, for the error text. */
  path: (string | number)[];
  id: number;
}

/** 400 naming every reference that is not a record of the organization (unknown or another organization's). */
export async function assertReferencesExist(db: Executor, accountId: string, references: readonly Reference[]) {
  const issues: { path: (string | number)[]; message: string }[] = [];
  for (const kind of new Set(references.map((r) => r.kind))) {
    const ofKind = references.filter((r) => r.kind === kind);
    const rows = await db.query<{ id: number }>(LOOKUPS[kind], [accountId, ofKind.map((r) => r.id)]);
    const found = new Set(rows.map((r) => r.id));
    for (const r of ofKind) {
      if (!found.has(r.id)) issues.push({ path: r.path, message: `${kind} ${r.id} not found in this organization` });
    }
  }
  if (issues.length > 0) throw badRequest(formatIssues(issues, 'body'));
}

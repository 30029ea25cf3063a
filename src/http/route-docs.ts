/** Sentences that the descriptions of many operations share. */

/** Who may call an organization-scoped operation. */
export const ROLE_NEEDED = {
  read: 'Any member of the organization (account_id) may call it.',
  write: 'Needs the OWNER or ADMIN role in the organization (account_id); a MEMBER gets 403.',
} as const;

/** The order of the refusals for a record addressed by its id within account_id. */
export function recordChecks(record: string): string {
  return `Refusals in this order: 403 when the caller is not a member of account_id or the role may not do this; then 404 when no ${record} has this id; 403 when it belongs to another organization.`;
}

/** What every list accepts. */
export const LIST_PARAMETERS =
  'A page of rows: page (from 1), limit (1 to 100, default 10), query (case-insensitive text search), sortBy and sortOrder (asc or desc, default desc; also spelled sort_by and sort_order); count is the total of matching rows.';

/** The order of refusals for a tariff addressed by id, and for its items, tiers and transition. */
export const TARIFF_CHECKS =
  'Refusals in this order: 400 `Catalogue is read-only` for a write on a catalogue tariff; 403 when the caller is not a member of account_id or the role may not do this; then 404 when no live tariff has this id; 403 when it belongs to another organization.';

/** account_id on the routes below a tariff (items, tiers). */
export const OPTIONAL_ACCOUNT =
  "account_id is optional: when given it must be the tariff's organization (403 otherwise); without it the caller needs the role in the tariff's own organization.";

/** How the work of an expensive route is admitted (admission.ts, fair-scheduler.ts). */
export const ADMITTED_AS_WORK =
  "Admitted as the organization's work by the fair scheduler: past EXPENSIVE_CONCURRENCY_PER_ORG (default 4) of an organization or EXPENSIVE_CONCURRENCY_PER_USER (default 8) of a user it waits its turn; past twice the user's limit waiting, 429 with Retry-After at once; still waiting at REQUEST_DEADLINE_S (default 30), 503.";

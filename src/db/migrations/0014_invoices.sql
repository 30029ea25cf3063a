-- What a utility charged one energy source of a building block for a period (extensions §12.3), and
-- the outcome of its latest check against the computed bill. The lines are the invoice's own
-- (description, item_type_code, quantity, unit, amount), kept as written, in order.
--
-- supplier + invoice_number is unique per organization: the constraint decides between two racing
-- creates (or updates) of the same number. An invoice goes with its block.
CREATE TABLE invoices (
  id serial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  building_block_id integer NOT NULL,
  source text NOT NULL CHECK (source IN ('grid', 'solar', 'genset', 'inverter', 'load')),
  supplier text NOT NULL,
  invoice_number text NOT NULL,
  issued_on date NOT NULL,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  currency text NOT NULL,
  estimated boolean NOT NULL DEFAULT false,
  lines jsonb NOT NULL,
  subtotal numeric(14, 2) NOT NULL,
  tax numeric(14, 2) NOT NULL,
  total numeric(14, 2) NOT NULL,
  check_status text CHECK (check_status IN ('ok', 'flagged')),
  check_difference numeric(14, 2),
  checked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (period_end > period_start),
  CONSTRAINT invoices_number_unique UNIQUE (account_id, supplier, invoice_number),
  FOREIGN KEY (building_block_id, account_id) REFERENCES building_blocks (id, account_id) ON DELETE CASCADE
);
CREATE INDEX invoices_block_source_idx ON invoices (building_block_id, source, period_start);

-- Gateways (extensions §13.9): the data loggers on site that push readings of the meters wired to
-- them with a key of their own. Only the key's SHA-256 is kept (the key is random, 144 bits: no
-- salt or slow hash needed); it is unique, so that a push finds its gateway by it in one lookup.
-- A gateway goes with its organization's meters: a deleted meter leaves its gateways.
CREATE TABLE gateways (
  id serial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  description text,
  key_hash bytea NOT NULL,
  last_seen_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, account_id),
  CONSTRAINT gateways_key_unique UNIQUE (key_hash)
);
CREATE INDEX gateways_account_idx ON gateways (account_id, created_at);

CREATE TABLE gateway_meters (
  gateway_id integer NOT NULL,
  meter_id integer NOT NULL,
  account_id uuid NOT NULL,
  PRIMARY KEY (gateway_id, meter_id),
  FOREIGN KEY (gateway_id, account_id) REFERENCES gateways (id, account_id) ON DELETE CASCADE,
  FOREIGN KEY (meter_id, account_id) REFERENCES meters (id, account_id) ON DELETE CASCADE
);
CREATE INDEX gateway_meters_meter_idx ON gateway_meters (meter_id);

-- Core schema: identity, organizations, building blocks, meters, tariffs, reference data.

-- Trigram similarity for the catalogue's fuzzy search.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  email text,
  picture_url text,
  public_data jsonb NOT NULL DEFAULT '{}'::jsonb,
  is_personal_account boolean NOT NULL DEFAULT false,
  primary_owner_user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('OWNER', 'ADMIN', 'MEMBER')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id);

CREATE TABLE auth_sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE TABLE refresh_tokens (
  id bigserial PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES auth_sessions (id) ON DELETE CASCADE,
  parent_id bigint REFERENCES refresh_tokens (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id);

-- Reference data (seeded by later migrations, read-only through the API).

CREATE TABLE dsos (
  id integer PRIMARY KEY,
  name text NOT NULL UNIQUE,
  tz text NOT NULL
);

CREATE TABLE tariff_item_types (
  code text PRIMARY KEY,
  display_name text NOT NULL,
  unit text NOT NULL
);

-- A season recurs every year: only the month and day of date_start and date_end count;
-- a season whose end falls before its start (by month and day) wraps over the new year.
CREATE TABLE dso_seasons (
  id integer PRIMARY KEY,
  dso_id integer NOT NULL REFERENCES dsos (id),
  label text NOT NULL CHECK (label IN ('SUMMER', 'WINTER', 'TRANSITION', 'ALL_YEAR')),
  date_start date NOT NULL,
  date_end date NOT NULL
);

CREATE TABLE tou_schedules (
  id integer PRIMARY KEY,
  dso_id integer NOT NULL REFERENCES dsos (id),
  name text NOT NULL,
  version integer NOT NULL,
  tz text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  holiday_default text NOT NULL CHECK (holiday_default IN ('WEEKDAY', 'SATURDAY', 'SUNDAY', 'PUBLIC_HOLIDAY')),
  UNIQUE (dso_id, name, version)
);

CREATE TABLE tou_rules (
  id integer PRIMARY KEY,
  schedule_id integer NOT NULL REFERENCES tou_schedules (id),
  season_id integer NOT NULL REFERENCES dso_seasons (id),
  day_type text NOT NULL CHECK (day_type IN ('WEEKDAY', 'SATURDAY', 'SUNDAY', 'PUBLIC_HOLIDAY')),
  period text NOT NULL CHECK (period IN ('PEAK', 'STANDARD', 'OFF_PEAK')),
  start_minute integer NOT NULL CHECK (start_minute BETWEEN 0 AND 1439 AND start_minute % 30 = 0),
  end_minute integer NOT NULL CHECK (end_minute <= 1440 AND end_minute % 30 = 0 AND end_minute > start_minute)
);
CREATE INDEX tou_rules_schedule_idx ON tou_rules (schedule_id);

CREATE TABLE dso_public_holidays (
  dso_id integer NOT NULL REFERENCES dsos (id),
  on_date date NOT NULL,
  name text NOT NULL,
  day_type_override text CHECK (day_type_override IN ('WEEKDAY', 'SATURDAY', 'SUNDAY', 'PUBLIC_HOLIDAY')),
  PRIMARY KEY (dso_id, on_date)
);

-- Organization data.

CREATE TABLE building_blocks (
  id serial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  building_type text NOT NULL,
  description text,
  address text NOT NULL,
  city text NOT NULL,
  state text NOT NULL,
  postal_code numeric NOT NULL,
  country text NOT NULL,
  parent_id integer,
  area double precision,
  is_active boolean NOT NULL DEFAULT true,
  location text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, account_id),
  -- A parent must belong to the same organization: the composite key lets the database enforce it.
  FOREIGN KEY (parent_id, account_id) REFERENCES building_blocks (id, account_id)
);
CREATE INDEX building_blocks_account_idx ON building_blocks (account_id, created_at);
CREATE INDEX building_blocks_parent_idx ON building_blocks (parent_id);

CREATE TABLE tariffs (
  id serial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  description text,
  dso_id integer REFERENCES dsos (id),
  tou_schedule_id integer REFERENCES tou_schedules (id),
  meter_type text NOT NULL DEFAULT 'ELECTRICITY',
  tariff_type text NOT NULL DEFAULT 'FLAT',
  currency text NOT NULL DEFAULT 'ZAR',
  tax_rate numeric NOT NULL DEFAULT 0 CHECK (tax_rate >= 0 AND tax_rate <= 100),
  is_active boolean NOT NULL DEFAULT true,
  effective_from date NOT NULL,
  effective_to date NOT NULL,
  timezone text NOT NULL DEFAULT 'Africa/Johannesburg',
  notes text,
  cloned_from integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by uuid,
  deleted_at timestamptz,
  UNIQUE (id, account_id),
  CHECK (effective_to >= effective_from)
);
CREATE INDEX tariffs_account_idx ON tariffs (account_id, created_at) WHERE deleted_at IS NULL;

CREATE TABLE tariff_items (
  id serial PRIMARY KEY,
  tariff_id integer NOT NULL REFERENCES tariffs (id) ON DELETE CASCADE,
  item_type_code text NOT NULL REFERENCES tariff_item_types (code),
  price numeric NOT NULL,
  season text NOT NULL DEFAULT 'SUMMER' CHECK (season IN ('SUMMER', 'WINTER', 'TRANSITION', 'ALL_YEAR')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tariff_id, item_type_code, season)
);

CREATE TABLE tariff_blocks (
  id serial PRIMARY KEY,
  tariff_item_id integer NOT NULL REFERENCES tariff_items (id) ON DELETE CASCADE,
  block_index integer NOT NULL CHECK (block_index >= 0),
  upper_limit numeric,
  unit_price_cents integer NOT NULL DEFAULT 0,
  UNIQUE (tariff_item_id, block_index)
);

CREATE TABLE meters (
  id serial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  building_block_id integer NOT NULL,
  meter_sn text NOT NULL UNIQUE,
  meter_type text NOT NULL,
  name text,
  tariff_id integer,
  interval_minutes integer NOT NULL DEFAULT 30 CHECK (interval_minutes IN (5, 10, 15, 30, 60)),
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, account_id),
  FOREIGN KEY (building_block_id, account_id) REFERENCES building_blocks (id, account_id),
  FOREIGN KEY (tariff_id, account_id) REFERENCES tariffs (id, account_id)
);
CREATE INDEX meters_account_idx ON meters (account_id, created_at);
CREATE INDEX meters_block_idx ON meters (building_block_id);
CREATE INDEX meters_tariff_idx ON meters (tariff_id);

CREATE TABLE energy_dashboard_configs (
  building_block_id integer PRIMARY KEY,
  account_id uuid NOT NULL,
  grid_meter_id integer,
  solar_meter_id integer,
  genset_meter_id integer,
  inverter_meter_id integer,
  load_meter_id integer,
  water_supply_meter_id integer,
  submeter_ids integer[],
  grid_tariff_id integer,
  solar_tariff_id integer,
  genset_tariff_id integer,
  inverter_tariff_id integer,
  load_tariff_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (building_block_id, account_id) REFERENCES building_blocks (id, account_id) ON DELETE CASCADE,
  FOREIGN KEY (grid_meter_id, account_id) REFERENCES meters (id, account_id),
  FOREIGN KEY (solar_meter_id, account_id) REFERENCES meters (id, account_id),
  FOREIGN KEY (genset_meter_id, account_id) REFERENCES meters (id, account_id),
  FOREIGN KEY (inverter_meter_id, account_id) REFERENCES meters (id, account_id),
  FOREIGN KEY (load_meter_id, account_id) REFERENCES meters (id, account_id),
  FOREIGN KEY (water_supply_meter_id, account_id) REFERENCES meters (id, account_id),
  FOREIGN KEY (grid_tariff_id, account_id) REFERENCES tariffs (id, account_id),
  FOREIGN KEY (solar_tariff_id, account_id) REFERENCES tariffs (id, account_id),
  FOREIGN KEY (genset_tariff_id, account_id) REFERENCES tariffs (id, account_id),
  FOREIGN KEY (inverter_tariff_id, account_id) REFERENCES tariffs (id, account_id),
  FOREIGN KEY (load_tariff_id, account_id) REFERENCES tariffs (id, account_id)
);
CREATE INDEX dashboard_configs_account_idx ON energy_dashboard_configs (account_id);

CREATE TABLE tariff_transitions (
  id serial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  predecessor_id integer NOT NULL UNIQUE REFERENCES tariffs (id),
  successor_id integer NOT NULL REFERENCES tariffs (id),
  effective_from timestamptz NOT NULL,
  notes text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by uuid,
  applied_at timestamptz,
  CHECK (predecessor_id <> successor_id)
);
CREATE INDEX tariff_transitions_due_idx ON tariff_transitions (effective_from) WHERE applied_at IS NULL;

-- Interval readings: one row per meter and interval start. No foreign key on meter_id: it would
-- check the meter for every reading written; writers lock their meters instead, and a trigger on
-- meters deletes a meter's readings with it (0005_readings_rollups.sql).
CREATE TABLE readings (
  meter_id integer NOT NULL,
  ts timestamptz NOT NULL,
  import_kwh double precision NOT NULL,
  export_kwh double precision NOT NULL DEFAULT 0,
  kvarh double precision NOT NULL DEFAULT 0,
  power_kw double precision NOT NULL,
  kva double precision NOT NULL,
  PRIMARY KEY (meter_id, ts)
);

-- Every change of the tariff that prices a meter (meters.tariff_id) or a source of a building
-- block's dashboard config (energy_dashboard_configs.<source>_tariff_id), with the instant it takes
-- effect. A row names either a meter, or a block and one of its sources.
--
-- effective_from NULL means "from the beginning of time": the first record of a meter or source
-- has it, and only the first. Along one meter's or source's records (in id order) effective_from
-- never decreases, so the tariff in force at an instant is that of the last record whose
-- effective_from is at or before it; before a meter's or source's first tariff there is no record.
-- The last record's tariff_id is always the current one (NULL: no tariff).
--
-- cause: CREATE (a meter created with a tariff), UPDATE (a request changed it), TRANSITION (a
-- tariff transition was applied: transition_id, effective at the transition's effective_from),
-- DELETE (the dashboard config was deleted; the block's source history stays with the block),
-- EXISTING (the assignment already in place when history began).
CREATE TABLE tariff_history (
  id bigserial PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id),
  meter_id integer,
  building_block_id integer,
  source text CHECK (source IN ('grid', 'solar', 'genset', 'inverter', 'load')),
  tariff_id integer,
  effective_from timestamptz,
  recorded_at timestamptz NOT NULL,
  cause text NOT NULL CHECK (cause IN ('CREATE', 'UPDATE', 'TRANSITION', 'DELETE', 'EXISTING')),
  transition_id integer REFERENCES tariff_transitions (id) ON DELETE SET NULL,
  CHECK ((meter_id IS NULL) <> (building_block_id IS NULL)),
  CHECK ((building_block_id IS NULL) = (source IS NULL)),
  FOREIGN KEY (meter_id, account_id) REFERENCES meters (id, account_id) ON DELETE CASCADE,
  FOREIGN KEY (building_block_id, account_id) REFERENCES building_blocks (id, account_id) ON DELETE CASCADE,
  FOREIGN KEY (tariff_id, account_id) REFERENCES tariffs (id, account_id)
);
CREATE INDEX tariff_history_meter_idx ON tariff_history (meter_id, id) WHERE meter_id IS NOT NULL;
CREATE INDEX tariff_history_source_idx ON tariff_history (building_block_id, source, id)
  WHERE building_block_id IS NOT NULL;
CREATE INDEX tariff_history_tariff_idx ON tariff_history (tariff_id) WHERE tariff_id IS NOT NULL;
CREATE INDEX tariff_history_transition_idx ON tariff_history (transition_id) WHERE transition_id IS NOT NULL;

-- What is assigned today counts from the beginning of time.
INSERT INTO tariff_history (account_id, meter_id, tariff_id, effective_from, recorded_at, cause)
SELECT account_id, id, tariff_id, NULL, now(), 'EXISTING'
FROM meters WHERE tariff_id IS NOT NULL ORDER BY id;

INSERT INTO tariff_history (account_id, building_block_id, source, tariff_id, effective_from, recorded_at, cause)
SELECT c.account_id, c.building_block_id, s.source, s.tariff_id, NULL, now(), 'EXISTING'
FROM energy_dashboard_configs c
CROSS JOIN LATERAL (VALUES
  (1, 'grid', c.grid_tariff_id),
  (2, 'solar', c.solar_tariff_id),
  (3, 'genset', c.genset_tariff_id),
  (4, 'inverter', c.inverter_tariff_id),
  (5, 'load', c.load_tariff_id)
) AS s (position, source, tariff_id)
WHERE s.tariff_id IS NOT NULL
ORDER BY c.building_block_id, s.position;

-- Hourly and daily aggregates of interval readings (UTC hours and days), kept up to date by every
-- ingest in the same transaction. Sums are exact integers of micro-units (1 µWh = 1e-9 kWh; µvarh,
-- µW, µVA likewise) of the readings rounded to that unit, so that adding rollups and raw readings in
-- any grouping gives the same total as adding the raw readings (sums of doubles depend on order).

CREATE TABLE readings_hourly (
  meter_id integer NOT NULL,
  bucket_start timestamptz NOT NULL,
  import_uwh numeric NOT NULL,
  export_uwh numeric NOT NULL,
  uvarh numeric NOT NULL,
  readings integer NOT NULL,
  sum_power_uw numeric NOT NULL,
  max_power_kw double precision NOT NULL,
  sum_uva numeric NOT NULL,
  max_kva double precision NOT NULL,
  PRIMARY KEY (meter_id, bucket_start)
);

CREATE TABLE readings_daily (LIKE readings_hourly INCLUDING ALL);

-- Readings and rollups go with their meter. A trigger rather than a foreign key: a key would check
-- the meter once for every reading and rollup row written, a large share of the cost of an ingest.
-- Writers take FOR KEY SHARE on their meters first (readingsRepository.lockMeters), so a meter
-- cannot be deleted between that check and their commit, nor gain readings after its deletion.
CREATE FUNCTION delete_meter_readings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM readings WHERE meter_id = OLD.id;
  DELETE FROM readings_hourly WHERE meter_id = OLD.id;
  DELETE FROM readings_daily WHERE meter_id = OLD.id;
  RETURN OLD;
END;
$$;

CREATE TRIGGER meters_delete_readings AFTER DELETE ON meters
  FOR EACH ROW EXECUTE FUNCTION delete_meter_readings();

-- Rollup sums in 64-bit integers of micro-units instead of numeric: adding them is several times
-- faster, and they cannot overflow: a reading's values are at most 1,000,000 (derived power and
-- apparent power at most about 1.7e7), so a day of 5-minute readings sums to at most 4.9e18.
ALTER TABLE readings_hourly
  ALTER COLUMN import_uwh TYPE bigint, ALTER COLUMN export_uwh TYPE bigint, ALTER COLUMN uvarh TYPE bigint,
  ALTER COLUMN sum_power_uw TYPE bigint, ALTER COLUMN sum_uva TYPE bigint;
ALTER TABLE readings_daily
  ALTER COLUMN import_uwh TYPE bigint, ALTER COLUMN export_uwh TYPE bigint, ALTER COLUMN uvarh TYPE bigint,
  ALTER COLUMN sum_power_uw TYPE bigint, ALTER COLUMN sum_uva TYPE bigint;

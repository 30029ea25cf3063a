-- Tariff items that real bills need (extensions §11.5), and the meter's notified maximum demand.
-- Every new column is NULL on existing rows, and NULL means what an item or meter meant before:
-- the unit of the item type, demand counted in every period, the month's maximum demand, no free
-- reactive energy, no notified maximum demand.
-- What the columns may hold depends on the item type and the tariff (a kVA/month item, a
-- TIME_OF_USE tariff): the service checks that on the rows it locks; the checks here bound the values.

ALTER TABLE tariff_items
  ADD COLUMN unit text CHECK (unit IN ('kWh', 'kvarh', 'kVA/month', 'day', 'month')),
  -- A set of periods: each at most once (removing one value removes at most one element).
  ADD COLUMN demand_periods text[] CHECK (
    array_ndims(demand_periods) = 1
    AND cardinality(demand_periods) BETWEEN 1 AND 3
    AND demand_periods <@ ARRAY['PEAK', 'STANDARD', 'OFF_PEAK']::text[]
    AND cardinality(array_remove(demand_periods, 'PEAK')) >= cardinality(demand_periods) - 1
    AND cardinality(array_remove(demand_periods, 'STANDARD')) >= cardinality(demand_periods) - 1
    AND cardinality(array_remove(demand_periods, 'OFF_PEAK')) >= cardinality(demand_periods) - 1
  ),
  ADD COLUMN demand_basis text CHECK (demand_basis IN ('MONTH_MAX', 'NMD', 'UTILISED_CAPACITY', 'EXCESS')),
  ADD COLUMN free_ratio numeric(5, 4) CHECK (free_ratio BETWEEN 0 AND 1);

ALTER TABLE meters
  ADD COLUMN notified_max_demand_kva numeric(14, 3) CHECK (notified_max_demand_kva >= 0);

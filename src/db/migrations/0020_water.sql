-- Water, the second utility (extensions §13.6): register reads of water meters, the SEWERAGE item
-- type, items in kL with a share of the water volume and a monthly cap, the dashboard config's water
-- tariff, and the City of Cape Town's water and sanitation tariffs in the catalogue.

-- A water meter's cumulative dial reads (kL). Their consumption is spread into the meter's interval
-- readings by the service; the reads are kept to show and to spread again when a read is added.
CREATE TABLE register_reads (
  meter_id integer NOT NULL REFERENCES meters (id) ON DELETE CASCADE,
  read_at timestamptz NOT NULL,
  register_kl numeric(14, 6) NOT NULL CHECK (register_kl >= 0),
  estimated boolean NOT NULL DEFAULT false,
  -- Stored with rollover: true: lower than the read before it means the dial passed zero.
  rollover boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (meter_id, read_at)
);

INSERT INTO tariff_item_types (code, display_name, unit) VALUES ('SEWERAGE', 'Sewerage (sanitation)', 'kL');

-- volume_share: the share of the water volume a SEWERAGE item charges; max_kl: the most kL it
-- charges in a month (of 30 days; a part month's cap in proportion to its days).
ALTER TABLE tariff_items
  DROP CONSTRAINT tariff_items_unit_check,
  ADD CONSTRAINT tariff_items_unit_check CHECK (unit IN ('kWh', 'kvarh', 'kVA/month', 'day', 'month', 'kL')),
  ADD COLUMN volume_share numeric(5, 4) CHECK (volume_share BETWEEN 0 AND 1),
  ADD COLUMN max_kl numeric(12, 3) CHECK (max_kl >= 0);

ALTER TABLE energy_dashboard_configs
  ADD COLUMN water_supply_tariff_id integer,
  ADD FOREIGN KEY (water_supply_tariff_id, account_id) REFERENCES tariffs (id, account_id);

ALTER TABLE tariff_history
  DROP CONSTRAINT tariff_history_source_check,
  ADD CONSTRAINT tariff_history_source_check CHECK (source IN ('grid', 'solar', 'genset', 'inverter', 'load', 'water'));

-- The catalogue (shared reference, "Water and sanitation"): the City of Cape Town's domestic steps
-- (0-6, 6-10.5, 10.5-35, 35-50, above 50 kL a month) and one commercial price per kL; sanitation on
-- 70 % of the water (domestic, up to 35 kL of sewage a month: max_kl, in steps of 0-4.2, 4.2-7.35,
-- 7.35-14, 14-24.5 and from 24.5 kL) or 95 % (commercial); fixed monthly water (SERVICE) and sanitation
-- (ADMINISTRATION) charges. The published prices were not confirmed: every price is illustrative,
-- 2026/27 the 2025/26 price x 1.09. Excl. VAT (15 %). Tariff 13 (domestic water 2025/26) gains its
-- sanitation and fixed charges.
UPDATE tariffs SET
  name = 'City of Cape Town Domestic Water and Sanitation 2025/26 (illustrative)',
  description = 'Illustrative City of Cape Town domestic water and sanitation tariff. Water in monthly steps: 0-6 kL R29.70, 6-10.5 kL R44.20, 10.5-35 kL R63.95, 35-50 kL R105.00, above 50 kL R158.40 per kL. Sanitation on 70% of the water, up to 35 kL a month: 0-4.2 kL R26.50, 4.2-7.35 kL R37.90, 7.35-14 kL R49.60, 14-24.5 kL R61.30, 24.5-35 kL R73.20 per kL. Fixed water charge R62.00 and sanitation charge R48.00 per month. Steps per 30-day month, in proportion for a part month.',
  notes = 'Illustrative: the published 2025/26 prices were not confirmed at source.'
WHERE id = 13 AND account_id = 'ca7a1060-0000-4000-8000-000000000001';

INSERT INTO tariffs
  (id, account_id, name, description, dso_id, tou_schedule_id, meter_type, tariff_type,
   currency, tax_rate, effective_from, effective_to, timezone, notes, family, customer_classes)
VALUES
  (20, 'ca7a1060-0000-4000-8000-000000000001', 'City of Cape Town Domestic Water and Sanitation 2026/27 (illustrative)',
   'Illustrative City of Cape Town domestic water and sanitation tariff: the 2025/26 prices x 1.09. Water in monthly steps: 0-6 kL R32.37, 6-10.5 kL R48.18, 10.5-35 kL R69.71, 35-50 kL R114.45, above 50 kL R172.66 per kL. Sanitation on 70% of the water, up to 35 kL a month: 0-4.2 kL R28.89, 4.2-7.35 kL R41.31, 7.35-14 kL R54.06, 14-24.5 kL R66.82, 24.5-35 kL R79.79 per kL. Fixed water charge R67.58 and sanitation charge R52.32 per month.',
   3, NULL, 'WATER', 'BLOCK', 'ZAR', 15, '2026-07-01', '2027-06-30', 'Africa/Johannesburg',
   'Illustrative: 2025/26 prices x 1.09; not confirmed at source.', 'cape-town-domestic-water', ARRAY['RESIDENTIAL']),
  (21, 'ca7a1060-0000-4000-8000-000000000001', 'City of Cape Town Commercial Water and Sanitation 2025/26 (illustrative)',
   'Illustrative City of Cape Town commercial and industrial water and sanitation tariff: water R52.80 per kL; sanitation on 95% of the water, R45.70 per kL; fixed water charge R310.00 and sanitation charge R250.00 per month.',
   3, NULL, 'WATER', 'FLAT', 'ZAR', 15, '2025-07-01', '2026-06-30', 'Africa/Johannesburg',
   'Illustrative: the published 2025/26 prices were not confirmed at source.', 'cape-town-commercial-water', ARRAY['COMMERCIAL', 'INDUSTRIAL']),
  (22, 'ca7a1060-0000-4000-8000-000000000001', 'City of Cape Town Commercial Water and Sanitation 2026/27 (illustrative)',
   'Illustrative City of Cape Town commercial and industrial water and sanitation tariff: the 2025/26 prices x 1.09. Water R57.55 per kL; sanitation on 95% of the water, R49.81 per kL; fixed water charge R337.90 and sanitation charge R272.50 per month.',
   3, NULL, 'WATER', 'FLAT', 'ZAR', 15, '2026-07-01', '2027-06-30', 'Africa/Johannesburg',
   'Illustrative: 2025/26 prices x 1.09; not confirmed at source.', 'cape-town-commercial-water', ARRAY['COMMERCIAL', 'INDUSTRIAL']);

UPDATE tariff_items SET unit = 'kL' WHERE id = 1301;

INSERT INTO tariff_items (id, tariff_id, item_type_code, price, season, unit, volume_share, max_kl) VALUES
  (1302, 13, 'SEWERAGE', 26.50, 'ALL_YEAR', 'kL', 0.7, 35),
  (1303, 13, 'SERVICE', 62.00, 'ALL_YEAR', 'month', NULL, NULL),
  (1304, 13, 'ADMINISTRATION', 48.00, 'ALL_YEAR', 'month', NULL, NULL),
  (2001, 20, 'WATER_CONSUMPTION', 32.37, 'ALL_YEAR', 'kL', NULL, NULL),
  (2002, 20, 'SEWERAGE', 28.89, 'ALL_YEAR', 'kL', 0.7, 35),
  (2003, 20, 'SERVICE', 67.58, 'ALL_YEAR', 'month', NULL, NULL),
  (2004, 20, 'ADMINISTRATION', 52.32, 'ALL_YEAR', 'month', NULL, NULL),
  (2101, 21, 'WATER_CONSUMPTION', 52.80, 'ALL_YEAR', 'kL', NULL, NULL),
  (2102, 21, 'SEWERAGE', 45.70, 'ALL_YEAR', 'kL', 0.95, NULL),
  (2103, 21, 'SERVICE', 310.00, 'ALL_YEAR', 'month', NULL, NULL),
  (2104, 21, 'ADMINISTRATION', 250.00, 'ALL_YEAR', 'month', NULL, NULL),
  (2201, 22, 'WATER_CONSUMPTION', 57.55, 'ALL_YEAR', 'kL', NULL, NULL),
  (2202, 22, 'SEWERAGE', 49.81, 'ALL_YEAR', 'kL', 0.95, NULL),
  (2203, 22, 'SERVICE', 337.90, 'ALL_YEAR', 'month', NULL, NULL),
  (2204, 22, 'ADMINISTRATION', 272.50, 'ALL_YEAR', 'month', NULL, NULL);

INSERT INTO tariff_blocks (id, tariff_item_id, block_index, upper_limit, unit_price_cents) VALUES
  (13021, 1302, 0, 4.2, 2650),
  (13022, 1302, 1, 7.35, 3790),
  (13023, 1302, 2, 14, 4960),
  (13024, 1302, 3, 24.5, 6130),
  (13025, 1302, 4, NULL, 7320),
  (20011, 2001, 0, 6, 3237),
  (20012, 2001, 1, 10.5, 4818),
  (20013, 2001, 2, 35, 6971),
  (20014, 2001, 3, 50, 11445),
  (20015, 2001, 4, NULL, 17266),
  (20021, 2002, 0, 4.2, 2889),
  (20022, 2002, 1, 7.35, 4131),
  (20023, 2002, 2, 14, 5406),
  (20024, 2002, 3, 24.5, 6682),
  (20025, 2002, 4, NULL, 7979);

-- Invoices of the water supply (source water).
ALTER TABLE invoices
  DROP CONSTRAINT invoices_source_check,
  ADD CONSTRAINT invoices_source_check CHECK (source IN ('grid', 'solar', 'genset', 'inverter', 'load', 'water'));

-- The catalogue itemised with the fields of 0010 (extensions §11.5): charges that could not be
-- entered before become items. Ids follow 0004 (item id = tariff id * 100 + n, block id = item id
-- * 10 + n). Figures not confirmed at source stay marked illustrative. The Homelight 2024/25 tiers
-- took their exact decimal cents in 0008.

-- Eskom Homeflex 1 2025/26: the network demand charge is per kWh, the network and generation
-- capacity charges per day.
INSERT INTO tariff_items (id, tariff_id, item_type_code, price, season, unit) VALUES
  (610, 6, 'NETWORK_DEMAND', 0.2637, 'ALL_YEAR', 'kWh'),
  (611, 6, 'NETWORK_CAPACITY', 12.13, 'ALL_YEAR', 'day'),
  (612, 6, 'GENERATION_CAPACITY', 0.72, 'ALL_YEAR', 'day');
UPDATE tariffs SET
  description = 'Eskom residential time-of-use tariff for grid-tied customers. Energy, high-demand season (June-August): 706.97 / 216.31 / 159.26 c/kWh peak / standard / off-peak; low-demand season: 329.28 / 204.90 / 159.26 c/kWh. Legacy charge 22.78 c/kWh, network demand charge 26.37 c/kWh, ancillary service 0.41 c/kWh; network capacity charge R12.13, generation capacity charge R0.72 and service and administration R3.27 per day.',
  notes = NULL
WHERE id = 6;

-- Eskom Megaflex 2025/26 (illustrative): the network demand charge counts the half hours of peak
-- and standard periods only; the network capacity charge is on the utilised capacity (the higher of
-- the NMD and the last 12 months' maximum demand); excess network capacity on the demand above the
-- NMD; reactive energy only in the high-demand season, above 30% of the kWh.
UPDATE tariff_items SET demand_basis = 'UTILISED_CAPACITY' WHERE id = 808;
UPDATE tariff_items SET demand_periods = ARRAY['PEAK', 'STANDARD'] WHERE id = 809;
UPDATE tariff_items SET season = 'WINTER', free_ratio = 0.3 WHERE id = 816;
INSERT INTO tariff_items (id, tariff_id, item_type_code, price, season, demand_basis, free_ratio) VALUES
  (819, 8, 'REACTIVE_ENERGY', 0, 'SUMMER', NULL, 0.3),
  (820, 8, 'EXCESS_NETWORK_CAPACITY', 52.90, 'ALL_YEAR', 'EXCESS', NULL);
UPDATE tariffs SET
  description = 'Eskom time-of-use tariff for large urban supplies. Illustrative prices in the Megaflex structure: seasonal energy; transmission network, urban low-voltage subsidy and generation capacity per kVA per month; network demand per kVA of the highest peak or standard half hour; network capacity per kVA of utilised capacity (the higher of the notified maximum demand and the last 12 months'' maximum demand); excess network capacity per kVA above the notified maximum demand; reactive energy per kvarh above 30% of the kWh, in the high-demand season only; per-kWh levies; daily charges. Not confirmed at source.'
WHERE id = 8;

-- City Power Johannesburg prepaid residential 2024/25: a fixed R200 per month (R70 service, R130
-- capacity) beside the energy blocks, whose prices are illustrative.
INSERT INTO tariffs
  (id, account_id, name, description, dso_id, tou_schedule_id, meter_type, tariff_type,
   currency, tax_rate, effective_from, effective_to, timezone, notes)
VALUES
  (15, 'ca7a1060-0000-4000-8000-000000000001', 'City Power Prepaid Residential 2024/25',
   'City Power Johannesburg prepaid residential tariff with a fixed charge of R200 per month (R70 service and R130 network capacity) and energy in monthly blocks: 0-350 kWh R2.37/kWh, 351-500 kWh R2.72/kWh, above 500 kWh R2.96/kWh (the energy prices are illustrative).',
   2, NULL, 'ELECTRICITY', 'BLOCK', 'ZAR', 15, '2024-07-01', '2025-06-30', 'Africa/Johannesburg',
   'Energy block prices illustrative; the fixed charge of R200 per month is City Power''s.');
INSERT INTO tariff_items (id, tariff_id, item_type_code, price, season, unit) VALUES
  (1501, 15, 'IMPORT_ENERGY', 2.37, 'ALL_YEAR', NULL),
  (1502, 15, 'SERVICE', 70, 'ALL_YEAR', 'month'),
  (1503, 15, 'NETWORK_CAPACITY', 130, 'ALL_YEAR', 'month');
INSERT INTO tariff_blocks (id, tariff_item_id, block_index, upper_limit, unit_price_cents) VALUES
  (15011, 1501, 0, 350, 237),
  (15012, 1501, 1, 500, 272),
  (15013, 1501, 2, NULL, 296);

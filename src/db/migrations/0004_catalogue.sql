-- The tariff catalogue: a fixed account without members whose tariffs every user can read and clone.
-- Prices exclude VAT (tax_rate 15). An item's price is in Rand per unit of its item type; a block's
-- unit_price_cents is in cents per unit (kWh, or kL for water), rounded to whole cents.
-- Figures not confirmed at source are marked illustrative in the tariff's name and description.
-- Ids are explicit (item id = tariff id * 100 + n, block id = item id * 10 + n); the sequences are
-- moved past them afterwards so that rows created through the API never collide.

INSERT INTO accounts (id, name, is_personal_account, primary_owner_user_id)
VALUES ('ca7a1060-0000-4000-8000-000000000001', 'Tariff Catalogue', false, NULL);

INSERT INTO tariffs
  (id, account_id, name, description, dso_id, tou_schedule_id, meter_type, tariff_type,
   currency, tax_rate, effective_from, effective_to, timezone, notes)
VALUES
  (1, 'ca7a1060-0000-4000-8000-000000000001', 'Eskom Homelight 20A 2024/25',
   'Eskom residential tariff for 20 A supplies with inclining monthly energy blocks: 0-350 kWh 190.28 c/kWh, above 350 kWh 215.62 c/kWh.',
   1, NULL, 'ELECTRICITY', 'BLOCK', 'ZAR', 15, '2024-04-01', '2025-03-31', 'Africa/Johannesburg',
   'Block prices rounded to whole cents.'),
  (2, 'ca7a1060-0000-4000-8000-000000000001', 'Eskom Homelight 60A 2024/25',
   'Eskom residential tariff for 60 A supplies with inclining monthly energy blocks: 0-600 kWh 232.31 c/kWh, above 600 kWh 394.86 c/kWh.',
   1, NULL, 'ELECTRICITY', 'BLOCK', 'ZAR', 15, '2024-04-01', '2025-03-31', 'Africa/Johannesburg',
   'Block prices rounded to whole cents.'),
  (3, 'ca7a1060-0000-4000-8000-000000000001', 'Eskom Homelight 20A 2025/26',
   'Eskom residential tariff for 20 A supplies. From 1 April 2025 a single energy rate of 216.11 c/kWh replaces the blocks.',
   1, NULL, 'ELECTRICITY', 'FLAT', 'ZAR', 15, '2025-04-01', '2026-03-31', 'Africa/Johannesburg', NULL),
  (4, 'ca7a1060-0000-4000-8000-000000000001', 'Eskom Homelight 60A 2025/26',
   'Eskom residential tariff for 60 A supplies. From 1 April 2025 a single energy rate of 274.72 c/kWh replaces the blocks.',
   1, NULL, 'ELECTRICITY', 'FLAT', 'ZAR', 15, '2025-04-01', '2026-03-31', 'Africa/Johannesburg', NULL),
  (5, 'ca7a1060-0000-4000-8000-000000000001', 'Eskom Homepower 2025/26',
   'Eskom urban residential tariff with a single energy rate of 268.78 c/kWh.',
   1, NULL, 'ELECTRICITY', 'FLAT', 'ZAR', 15, '2025-04-01', '2026-03-31', 'Africa/Johannesburg',
   'Energy rate only: daily fixed charges of the Homepower range are not included.'),
  (6, 'ca7a1060-0000-4000-8000-000000000001', 'Eskom Homeflex 1 2025/26',
   'Eskom residential time-of-use tariff for grid-tied customers. Energy, high-demand season (June-August): 706.97 / 216.31 / 159.26 c/kWh peak / standard / off-peak; low-demand season: 329.28 / 204.90 / 159.26 c/kWh. Legacy charge 22.78 c/kWh, ancillary service 0.41 c/kWh, service and administration R3.27 per day.',
   1, 3, 'ELECTRICITY', 'TIME_OF_USE', 'ZAR', 15, '2025-04-01', '2026-03-31', 'Africa/Johannesburg',
   'Not itemised because their item types are priced per kVA: network demand charge 26.37 c/kWh, network capacity charge R12.13 per day, generation capacity charge R0.72 per day.'),
  (7, 'ca7a1060-0000-4000-8000-000000000001', 'Eskom Miniflex 2025/26 (illustrative)',
   'Eskom urban time-of-use tariff for medium supplies. Illustrative prices in the Miniflex structure (seasonal peak, standard and off-peak energy, network capacity per kVA, per-kWh levies, daily charges); not confirmed at source.',
   1, 3, 'ELECTRICITY', 'TIME_OF_USE', 'ZAR', 15, '2025-04-01', '2026-03-31', 'Africa/Johannesburg', NULL),
  (8, 'ca7a1060-0000-4000-8000-000000000001', 'Eskom Megaflex 2025/26 (illustrative)',
   'Eskom time-of-use tariff for large urban supplies. Illustrative prices in the Megaflex structure (seasonal energy, transmission network, network capacity and demand, urban low-voltage subsidy and generation capacity per kVA per month, reactive energy per kvarh, per-kWh levies, daily charges); not confirmed at source.',
   1, 3, 'ELECTRICITY', 'TIME_OF_USE', 'ZAR', 15, '2025-04-01', '2026-03-31', 'Africa/Johannesburg', NULL),
  (9, 'ca7a1060-0000-4000-8000-000000000001', 'City Power Prepaid Residential 2023/24',
   'City Power Johannesburg prepaid residential energy in monthly blocks: 0-350 kWh R2.10/kWh, 351-500 kWh R2.41/kWh, above 500 kWh R2.63/kWh (the last block is illustrative).',
   2, NULL, 'ELECTRICITY', 'BLOCK', 'ZAR', 15, '2023-07-01', '2024-06-30', 'Africa/Johannesburg', NULL),
  (10, 'ca7a1060-0000-4000-8000-000000000001', 'City Power Business TOU 2025/26 (illustrative)',
   'Illustrative City Power Johannesburg low-voltage business time-of-use tariff: seasonal peak, standard and off-peak energy, network capacity per kVA per month and a daily service charge.',
   2, 4, 'ELECTRICITY', 'TIME_OF_USE', 'ZAR', 15, '2025-07-01', '2026-06-30', 'Africa/Johannesburg', NULL),
  (11, 'ca7a1060-0000-4000-8000-000000000001', 'City of Cape Town Domestic 2025/26 (illustrative)',
   'Illustrative City of Cape Town domestic credit-metered tariff: one energy rate and a daily service charge.',
   3, NULL, 'ELECTRICITY', 'FLAT', 'ZAR', 15, '2025-07-01', '2026-06-30', 'Africa/Johannesburg', NULL),
  (12, 'ca7a1060-0000-4000-8000-000000000001', 'City of Cape Town SSEG Feed-in 2025/26 (illustrative)',
   'Illustrative credit for energy exported to the grid by small-scale embedded generation (rooftop solar), per kWh.',
   3, NULL, 'SOLAR', 'FLAT', 'ZAR', 15, '2025-07-01', '2026-06-30', 'Africa/Johannesburg', NULL),
  (13, 'ca7a1060-0000-4000-8000-000000000001', 'City of Cape Town Domestic Water 2025/26 (illustrative)',
   'Illustrative City of Cape Town domestic water tariff in monthly steps: 0-6 kL, 6-10.5 kL, 10.5-35 kL, 35-50 kL, above 50 kL.',
   3, NULL, 'WATER', 'BLOCK', 'ZAR', 15, '2025-07-01', '2026-06-30', 'Africa/Johannesburg', NULL),
  (14, 'ca7a1060-0000-4000-8000-000000000001', 'Dynamic Energy Price, City Power area (illustrative)',
   'Illustrative dynamic tariff: the energy price varies hour by hour with the wholesale market. The listed price is an average, so costs computed from it are estimates.',
   2, NULL, 'ELECTRICITY', 'DYNAMIC', 'ZAR', 15, '2025-07-01', '2026-06-30', 'Africa/Johannesburg', NULL);

INSERT INTO tariff_items (id, tariff_id, item_type_code, price, season) VALUES
  -- An item with blocks is priced by its blocks; its price repeats the first tier.
  (101, 1, 'IMPORT_ENERGY', 1.9028, 'ALL_YEAR'),
  (201, 2, 'IMPORT_ENERGY', 2.3231, 'ALL_YEAR'),
  (301, 3, 'IMPORT_ENERGY', 2.1611, 'ALL_YEAR'),
  (401, 4, 'IMPORT_ENERGY', 2.7472, 'ALL_YEAR'),
  (501, 5, 'IMPORT_ENERGY', 2.6878, 'ALL_YEAR'),
  -- Homeflex 1
  (601, 6, 'TOU_PEAK_ENERGY', 7.0697, 'WINTER'),
  (602, 6, 'TOU_STANDARD_ENERGY', 2.1631, 'WINTER'),
  (603, 6, 'TOU_OFF_PEAK_ENERGY', 1.5926, 'WINTER'),
  (604, 6, 'TOU_PEAK_ENERGY', 3.2928, 'SUMMER'),
  (605, 6, 'TOU_STANDARD_ENERGY', 2.0490, 'SUMMER'),
  (606, 6, 'TOU_OFF_PEAK_ENERGY', 1.5926, 'SUMMER'),
  (607, 6, 'LEGACY', 0.2278, 'ALL_YEAR'),
  (608, 6, 'ANCILLARY_SERVICE', 0.0041, 'ALL_YEAR'),
  (609, 6, 'SERVICE', 3.27, 'ALL_YEAR'),
  -- Miniflex (illustrative)
  (701, 7, 'TOU_PEAK_ENERGY', 6.1932, 'WINTER'),
  (702, 7, 'TOU_STANDARD_ENERGY', 1.8720, 'WINTER'),
  (703, 7, 'TOU_OFF_PEAK_ENERGY', 1.0188, 'WINTER'),
  (704, 7, 'TOU_PEAK_ENERGY', 2.0481, 'SUMMER'),
  (705, 7, 'TOU_STANDARD_ENERGY', 1.4109, 'SUMMER'),
  (706, 7, 'TOU_OFF_PEAK_ENERGY', 0.8963, 'SUMMER'),
  (707, 7, 'NETWORK_CAPACITY', 24.86, 'ALL_YEAR'),
  (708, 7, 'LEGACY', 0.2278, 'ALL_YEAR'),
  (709, 7, 'ANCILLARY_SERVICE', 0.0045, 'ALL_YEAR'),
  (710, 7, 'AFFORDABILITY', 0.0489, 'ALL_YEAR'),
  (711, 7, 'SERVICE', 18.93, 'ALL_YEAR'),
  (712, 7, 'ADMINISTRATION', 4.85, 'ALL_YEAR'),
  -- Megaflex (illustrative)
  (801, 8, 'TOU_PEAK_ENERGY', 5.8721, 'WINTER'),
  (802, 8, 'TOU_STANDARD_ENERGY', 1.7795, 'WINTER'),
  (803, 8, 'TOU_OFF_PEAK_ENERGY', 0.9672, 'WINTER'),
  (804, 8, 'TOU_PEAK_ENERGY', 1.9476, 'SUMMER'),
  (805, 8, 'TOU_STANDARD_ENERGY', 1.3411, 'SUMMER'),
  (806, 8, 'TOU_OFF_PEAK_ENERGY', 0.8515, 'SUMMER'),
  (807, 8, 'TRANSMISSION_NETWORK', 13.62, 'ALL_YEAR'),
  (808, 8, 'NETWORK_CAPACITY', 26.45, 'ALL_YEAR'),
  (809, 8, 'NETWORK_DEMAND', 52.30, 'ALL_YEAR'),
  (810, 8, 'URBAN_LV_SUBSIDY', 21.14, 'ALL_YEAR'),
  (811, 8, 'GENERATION_CAPACITY', 3.85, 'ALL_YEAR'),
  (812, 8, 'ANCILLARY_SERVICE', 0.0045, 'ALL_YEAR'),
  (813, 8, 'ELECTRIFICATION_AND_RURAL_SUBSIDY', 0.0712, 'ALL_YEAR'),
  (814, 8, 'AFFORDABILITY', 0.0489, 'ALL_YEAR'),
  (815, 8, 'LEGACY', 0.2278, 'ALL_YEAR'),
  (816, 8, 'REACTIVE_ENERGY', 0.1750, 'ALL_YEAR'),
  (817, 8, 'SERVICE', 132.96, 'ALL_YEAR'),
  (818, 8, 'ADMINISTRATION', 31.54, 'ALL_YEAR'),
  (901, 9, 'IMPORT_ENERGY', 2.10, 'ALL_YEAR'),
  -- City Power business TOU (illustrative)
  (1001, 10, 'TOU_PEAK_ENERGY', 5.4410, 'WINTER'),
  (1002, 10, 'TOU_STANDARD_ENERGY', 1.6342, 'WINTER'),
  (1003, 10, 'TOU_OFF_PEAK_ENERGY', 0.9815, 'WINTER'),
  (1004, 10, 'TOU_PEAK_ENERGY', 1.8874, 'SUMMER'),
  (1005, 10, 'TOU_STANDARD_ENERGY', 1.2961, 'SUMMER'),
  (1006, 10, 'TOU_OFF_PEAK_ENERGY', 0.8617, 'SUMMER'),
  (1007, 10, 'NETWORK_CAPACITY', 38.50, 'ALL_YEAR'),
  (1008, 10, 'SERVICE', 46.20, 'ALL_YEAR'),
  (1101, 11, 'IMPORT_ENERGY', 3.4105, 'ALL_YEAR'),
  (1102, 11, 'SERVICE', 7.43, 'ALL_YEAR'),
  (1201, 12, 'EXPORTED_ENERGY', 1.0540, 'ALL_YEAR'),
  (1301, 13, 'WATER_CONSUMPTION', 29.70, 'ALL_YEAR'),
  (1401, 14, 'IMPORT_ENERGY', 2.45, 'ALL_YEAR');

INSERT INTO tariff_blocks (id, tariff_item_id, block_index, upper_limit, unit_price_cents) VALUES
  (1011, 101, 0, 350, 190),
  (1012, 101, 1, NULL, 216),
  (2011, 201, 0, 600, 232),
  (2012, 201, 1, NULL, 395),
  (9011, 901, 0, 350, 210),
  (9012, 901, 1, 500, 241),
  (9013, 901, 2, NULL, 263),
  (13011, 1301, 0, 6, 2970),
  (13012, 1301, 1, 10.5, 4420),
  (13013, 1301, 2, 35, 6395),
  (13014, 1301, 3, 50, 10500),
  (13015, 1301, 4, NULL, 15840);

SELECT setval(pg_get_serial_sequence('tariffs', 'id'), 1000);
SELECT setval(pg_get_serial_sequence('tariff_items', 'id'), 100000);
SELECT setval(pg_get_serial_sequence('tariff_blocks', 'id'), 100000);

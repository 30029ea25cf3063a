-- The catalogue's Eskom tariffs for 2026/27 (1 April 2026 to 31 March 2027, direct customers).
-- NERSA approved an average increase of 8.76% for 2026/27. Homepower's prices are published ones
-- (secondary source); the other entries carry their 2025/26 prices x 1.0876 (c/kWh rounded to
-- 2 decimals of a cent, Rand per day or per kVA to the cent) and say "illustrative" in their name
-- and description. The 2025/26 entries keep their dates. Ids follow 0004 (item id = tariff id *
-- 100 + n); items keep the order of their 2025/26 entry.

INSERT INTO tariffs
  (id, account_id, name, description, dso_id, tou_schedule_id, meter_type, tariff_type,
   currency, tax_rate, effective_from, effective_to, timezone, notes)
VALUES
  (16, 'ca7a1060-0000-4000-8000-000000000001', 'Eskom Homepower 2026/27',
   'Eskom urban residential tariff: active energy 322.06 c/kWh, network demand charge 32.98 c/kWh, ancillary service 0.52 c/kWh, service and administration R6.60 per day. From April 2026 a larger share of the cost is in the daily charge.',
   1, NULL, 'ELECTRICITY', 'FLAT', 'ZAR', 15, '2026-04-01', '2027-03-31', 'Africa/Johannesburg',
   'Prices from a secondary source citing Eskom''s 2026/27 schedule; not confirmed at source.'),
  (17, 'ca7a1060-0000-4000-8000-000000000001', 'Eskom Homeflex 1 2026/27 (illustrative)',
   'Eskom residential time-of-use tariff for grid-tied customers. Illustrative prices: the 2025/26 prices increased by 8.76%. Energy, high-demand season (June-August): 768.90 / 235.26 / 173.21 c/kWh peak / standard / off-peak; low-demand season: 358.12 / 222.85 / 173.21 c/kWh. Legacy charge 24.78 c/kWh, network demand charge 28.68 c/kWh, ancillary service 0.45 c/kWh; network capacity charge R13.19, generation capacity charge R0.78 and service and administration R3.56 per day.',
   1, 3, 'ELECTRICITY', 'TIME_OF_USE', 'ZAR', 15, '2026-04-01', '2027-03-31', 'Africa/Johannesburg',
   'Illustrative: 2025/26 prices x 1.0876 (NERSA''s average increase for 2026/27); not confirmed at source.'),
  (18, 'ca7a1060-0000-4000-8000-000000000001', 'Eskom Miniflex 2026/27 (illustrative)',
   'Eskom urban time-of-use tariff for medium supplies. Illustrative prices in the Miniflex structure (seasonal peak, standard and off-peak energy, network capacity per kVA, per-kWh levies, daily charges): the illustrative 2025/26 prices increased by 8.76%; not confirmed at source.',
   1, 3, 'ELECTRICITY', 'TIME_OF_USE', 'ZAR', 15, '2026-04-01', '2027-03-31', 'Africa/Johannesburg',
   'Illustrative: 2025/26 prices x 1.0876 (NERSA''s average increase for 2026/27); not confirmed at source.'),
  (19, 'ca7a1060-0000-4000-8000-000000000001', 'Eskom Megaflex 2026/27 (illustrative)',
   'Eskom time-of-use tariff for large urban supplies. Illustrative prices in the Megaflex structure: the illustrative 2025/26 prices increased by 8.76%. Seasonal energy; network demand per kVA of the highest peak or standard half hour of the month; transmission network, network capacity, urban low-voltage subsidy and generation capacity per kVA of utilised capacity (the higher of the notified maximum demand and the last 12 months'' maximum demand); excess network capacity per kVA above the notified maximum demand; reactive energy per kvarh above 30% of the kWh, in the high-demand season only; per-kWh levies; daily charges. Not confirmed at source.',
   1, 3, 'ELECTRICITY', 'TIME_OF_USE', 'ZAR', 15, '2026-04-01', '2027-03-31', 'Africa/Johannesburg',
   'Illustrative: 2025/26 prices x 1.0876 (NERSA''s average increase for 2026/27); not confirmed at source.');

INSERT INTO tariff_items (id, tariff_id, item_type_code, price, season, unit, demand_periods, demand_basis, free_ratio) VALUES
  -- Homepower (published)
  (1601, 16, 'IMPORT_ENERGY', 3.2206, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1602, 16, 'NETWORK_DEMAND', 0.3298, 'ALL_YEAR', 'kWh', NULL, NULL, NULL),
  (1603, 16, 'ANCILLARY_SERVICE', 0.0052, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1604, 16, 'SERVICE', 6.60, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  -- Homeflex 1 (illustrative)
  (1701, 17, 'TOU_PEAK_ENERGY', 7.6890, 'WINTER', NULL, NULL, NULL, NULL),
  (1702, 17, 'TOU_STANDARD_ENERGY', 2.3526, 'WINTER', NULL, NULL, NULL, NULL),
  (1703, 17, 'TOU_OFF_PEAK_ENERGY', 1.7321, 'WINTER', NULL, NULL, NULL, NULL),
  (1704, 17, 'TOU_PEAK_ENERGY', 3.5812, 'SUMMER', NULL, NULL, NULL, NULL),
  (1705, 17, 'TOU_STANDARD_ENERGY', 2.2285, 'SUMMER', NULL, NULL, NULL, NULL),
  (1706, 17, 'TOU_OFF_PEAK_ENERGY', 1.7321, 'SUMMER', NULL, NULL, NULL, NULL),
  (1707, 17, 'LEGACY', 0.2478, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1708, 17, 'ANCILLARY_SERVICE', 0.0045, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1709, 17, 'SERVICE', 3.56, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1710, 17, 'NETWORK_DEMAND', 0.2868, 'ALL_YEAR', 'kWh', NULL, NULL, NULL),
  (1711, 17, 'NETWORK_CAPACITY', 13.19, 'ALL_YEAR', 'day', NULL, NULL, NULL),
  (1712, 17, 'GENERATION_CAPACITY', 0.78, 'ALL_YEAR', 'day', NULL, NULL, NULL),
  -- Miniflex (illustrative)
  (1801, 18, 'TOU_PEAK_ENERGY', 6.7357, 'WINTER', NULL, NULL, NULL, NULL),
  (1802, 18, 'TOU_STANDARD_ENERGY', 2.0360, 'WINTER', NULL, NULL, NULL, NULL),
  (1803, 18, 'TOU_OFF_PEAK_ENERGY', 1.1080, 'WINTER', NULL, NULL, NULL, NULL),
  (1804, 18, 'TOU_PEAK_ENERGY', 2.2275, 'SUMMER', NULL, NULL, NULL, NULL),
  (1805, 18, 'TOU_STANDARD_ENERGY', 1.5345, 'SUMMER', NULL, NULL, NULL, NULL),
  (1806, 18, 'TOU_OFF_PEAK_ENERGY', 0.9748, 'SUMMER', NULL, NULL, NULL, NULL),
  (1807, 18, 'NETWORK_CAPACITY', 27.04, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1808, 18, 'LEGACY', 0.2478, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1809, 18, 'ANCILLARY_SERVICE', 0.0049, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1810, 18, 'AFFORDABILITY', 0.0532, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1811, 18, 'SERVICE', 20.59, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1812, 18, 'ADMINISTRATION', 5.27, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  -- Megaflex (illustrative): the bases of Eskom's schedule definitions. Network demand on the
  -- month's highest half hour of peak and standard periods; transmission network, network
  -- capacity, urban low-voltage subsidy and generation capacity on the utilised capacity; excess
  -- network capacity on the demand above the NMD; reactive energy in the high-demand season only,
  -- the kvarh of peak and standard periods above 30 % of their kWh.
  (1901, 19, 'TOU_PEAK_ENERGY', 6.3865, 'WINTER', NULL, NULL, NULL, NULL),
  (1902, 19, 'TOU_STANDARD_ENERGY', 1.9354, 'WINTER', NULL, NULL, NULL, NULL),
  (1903, 19, 'TOU_OFF_PEAK_ENERGY', 1.0519, 'WINTER', NULL, NULL, NULL, NULL),
  (1904, 19, 'TOU_PEAK_ENERGY', 2.1182, 'SUMMER', NULL, NULL, NULL, NULL),
  (1905, 19, 'TOU_STANDARD_ENERGY', 1.4586, 'SUMMER', NULL, NULL, NULL, NULL),
  (1906, 19, 'TOU_OFF_PEAK_ENERGY', 0.9261, 'SUMMER', NULL, NULL, NULL, NULL),
  (1907, 19, 'TRANSMISSION_NETWORK', 14.81, 'ALL_YEAR', NULL, NULL, 'UTILISED_CAPACITY', NULL),
  (1908, 19, 'NETWORK_CAPACITY', 28.77, 'ALL_YEAR', NULL, NULL, 'UTILISED_CAPACITY', NULL),
  (1909, 19, 'NETWORK_DEMAND', 56.88, 'ALL_YEAR', NULL, ARRAY['PEAK', 'STANDARD'], 'MONTH_MAX', NULL),
  (1910, 19, 'URBAN_LV_SUBSIDY', 22.99, 'ALL_YEAR', NULL, NULL, 'UTILISED_CAPACITY', NULL),
  (1911, 19, 'GENERATION_CAPACITY', 4.19, 'ALL_YEAR', NULL, NULL, 'UTILISED_CAPACITY', NULL),
  (1912, 19, 'ANCILLARY_SERVICE', 0.0049, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1913, 19, 'ELECTRIFICATION_AND_RURAL_SUBSIDY', 0.0774, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1914, 19, 'AFFORDABILITY', 0.0532, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1915, 19, 'LEGACY', 0.2478, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1916, 19, 'REACTIVE_ENERGY', 0.1903, 'WINTER', NULL, ARRAY['PEAK', 'STANDARD'], NULL, 0.3),
  (1917, 19, 'SERVICE', 144.61, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1918, 19, 'ADMINISTRATION', 34.30, 'ALL_YEAR', NULL, NULL, NULL, NULL),
  (1919, 19, 'REACTIVE_ENERGY', 0, 'SUMMER', NULL, NULL, NULL, 0.3),
  (1920, 19, 'EXCESS_NETWORK_CAPACITY', 57.53, 'ALL_YEAR', NULL, NULL, 'EXCESS', NULL);

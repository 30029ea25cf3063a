-- Reference data: tariff item types, distributors (DSOs), their seasons and time-of-use schedules.
-- Ids are fixed: tariffs, the API and the tests refer to them.

-- Units: a kVA item is priced per kVA of the month's maximum demand per month; a day item per day.
INSERT INTO tariff_item_types (code, display_name, unit) VALUES
  ('TOU_PEAK_ENERGY', 'Peak energy (time of use)', 'kWh'),
  ('TOU_STANDARD_ENERGY', 'Standard energy (time of use)', 'kWh'),
  ('TOU_OFF_PEAK_ENERGY', 'Off-peak energy (time of use)', 'kWh'),
  ('IMPORT_ENERGY', 'Active energy', 'kWh'),
  ('EXPORTED_ENERGY', 'Exported energy credit', 'kWh'),
  ('ANCILLARY_SERVICE', 'Ancillary service charge', 'kWh'),
  ('LEGACY', 'Legacy charge', 'kWh'),
  ('AFFORDABILITY', 'Affordability subsidy charge', 'kWh'),
  ('RURAL_SUBSIDY', 'Rural network subsidy charge', 'kWh'),
  ('ELECTRIFICATION_AND_RURAL_SUBSIDY', 'Electrification and rural network subsidy charge', 'kWh'),
  ('REACTIVE_ENERGY', 'Reactive energy charge', 'kvarh'),
  ('NETWORK_CAPACITY', 'Network capacity charge', 'kVA'),
  ('NETWORK_DEMAND', 'Network demand charge', 'kVA'),
  ('GENERATION_CAPACITY', 'Generation capacity charge', 'kVA'),
  ('TRANSMISSION_NETWORK', 'Transmission network charge', 'kVA'),
  ('URBAN_LV_SUBSIDY', 'Urban low-voltage subsidy charge', 'kVA'),
  ('EXCESS_NETWORK_CAPACITY', 'Excess network capacity charge', 'kVA'),
  ('SERVICE', 'Service charge', 'day'),
  ('ADMINISTRATION', 'Administration charge', 'day'),
  ('WATER_CONSUMPTION', 'Water consumption', 'kL'),
  ('CARBON', 'Carbon emissions', 'kgCO2e'),
  ('EV_MIN', 'EV charging time', 'minute'),
  ('EV_SESSION_FEE', 'EV charging session fee', 'session');

INSERT INTO dsos (id, name, tz) VALUES
  (1, 'Eskom', 'Africa/Johannesburg'),
  (2, 'City Power Johannesburg', 'Africa/Johannesburg'),
  (3, 'City of Cape Town', 'Africa/Johannesburg');

-- Seasons recur yearly (only month and day count). WINTER is the high-demand season (June to
-- August), SUMMER the low-demand one (September to May, wrapping over the new year).
-- Per DSO d the ids are 3d-2 (WINTER), 3d-1 (SUMMER) and 3d (ALL_YEAR).
INSERT INTO dso_seasons (id, dso_id, label, date_start, date_end) VALUES
  (1, 1, 'WINTER', '2025-06-01', '2025-08-31'),
  (2, 1, 'SUMMER', '2025-09-01', '2026-05-31'),
  (3, 1, 'ALL_YEAR', '2025-01-01', '2025-12-31'),
  (4, 2, 'WINTER', '2025-06-01', '2025-08-31'),
  (5, 2, 'SUMMER', '2025-09-01', '2026-05-31'),
  (6, 2, 'ALL_YEAR', '2025-01-01', '2025-12-31'),
  (7, 3, 'WINTER', '2025-06-01', '2025-08-31'),
  (8, 3, 'SUMMER', '2025-09-01', '2026-05-31'),
  (9, 3, 'ALL_YEAR', '2025-01-01', '2025-12-31');

-- Schedule 3 is the default schedule (Eskom's periods from 2025/26); schedule 1 holds the periods
-- before 2025/26. The municipal schedules are illustrative: City of Cape Town follows Eskom's new
-- periods, City Power still the old ones.
INSERT INTO tou_schedules (id, dso_id, name, version, tz, is_active, holiday_default) VALUES
  (1, 1, 'Eskom Megaflex/Miniflex/Homeflex TOU', 1, 'Africa/Johannesburg', false, 'SATURDAY'),
  (2, 3, 'City of Cape Town TOU (illustrative)', 1, 'Africa/Johannesburg', true, 'SATURDAY'),
  (3, 1, 'Eskom Megaflex/Miniflex/Homeflex TOU', 2, 'Africa/Johannesburg', true, 'SATURDAY'),
  (4, 2, 'City Power TOU (illustrative)', 1, 'Africa/Johannesburg', true, 'SATURDAY');

-- Minutes from local midnight: 360 = 06:00, 1320 = 22:00. Off-peak 22:00-06:00 is split at midnight.
-- Schedule 1 (Eskom, before 2025/26): rule ids 101-125.
INSERT INTO tou_rules (id, schedule_id, season_id, day_type, period, start_minute, end_minute) VALUES
  -- high-demand weekday: peak 06-09 and 17-19, standard 09-17 and 19-22
  (101, 1, 1, 'WEEKDAY', 'OFF_PEAK', 0, 360),
  (102, 1, 1, 'WEEKDAY', 'PEAK', 360, 540),
  (103, 1, 1, 'WEEKDAY', 'STANDARD', 540, 1020),
  (104, 1, 1, 'WEEKDAY', 'PEAK', 1020, 1140),
  (105, 1, 1, 'WEEKDAY', 'STANDARD', 1140, 1320),
  (106, 1, 1, 'WEEKDAY', 'OFF_PEAK', 1320, 1440),
  -- Saturday: standard 07-12 and 18-20
  (107, 1, 1, 'SATURDAY', 'OFF_PEAK', 0, 420),
  (108, 1, 1, 'SATURDAY', 'STANDARD', 420, 720),
  (109, 1, 1, 'SATURDAY', 'OFF_PEAK', 720, 1080),
  (110, 1, 1, 'SATURDAY', 'STANDARD', 1080, 1200),
  (111, 1, 1, 'SATURDAY', 'OFF_PEAK', 1200, 1440),
  (112, 1, 1, 'SUNDAY', 'OFF_PEAK', 0, 1440),
  -- low-demand weekday: peak 07-10 and 18-20, standard 06-07, 10-18 and 20-22
  (113, 1, 2, 'WEEKDAY', 'OFF_PEAK', 0, 360),
  (114, 1, 2, 'WEEKDAY', 'STANDARD', 360, 420),
  (115, 1, 2, 'WEEKDAY', 'PEAK', 420, 600),
  (116, 1, 2, 'WEEKDAY', 'STANDARD', 600, 1080),
  (117, 1, 2, 'WEEKDAY', 'PEAK', 1080, 1200),
  (118, 1, 2, 'WEEKDAY', 'STANDARD', 1200, 1320),
  (119, 1, 2, 'WEEKDAY', 'OFF_PEAK', 1320, 1440),
  (120, 1, 2, 'SATURDAY', 'OFF_PEAK', 0, 420),
  (121, 1, 2, 'SATURDAY', 'STANDARD', 420, 720),
  (122, 1, 2, 'SATURDAY', 'OFF_PEAK', 720, 1080),
  (123, 1, 2, 'SATURDAY', 'STANDARD', 1080, 1200),
  (124, 1, 2, 'SATURDAY', 'OFF_PEAK', 1200, 1440),
  (125, 1, 2, 'SUNDAY', 'OFF_PEAK', 0, 1440);

-- Schedule 3 (Eskom, from 2025/26): rule ids 301-329.
INSERT INTO tou_rules (id, schedule_id, season_id, day_type, period, start_minute, end_minute) VALUES
  -- high-demand weekday: peak 06-08 and 17-20, standard 08-17 and 20-22
  (301, 3, 1, 'WEEKDAY', 'OFF_PEAK', 0, 360),
  (302, 3, 1, 'WEEKDAY', 'PEAK', 360, 480),
  (303, 3, 1, 'WEEKDAY', 'STANDARD', 480, 1020),
  (304, 3, 1, 'WEEKDAY', 'PEAK', 1020, 1200),
  (305, 3, 1, 'WEEKDAY', 'STANDARD', 1200, 1320),
  (306, 3, 1, 'WEEKDAY', 'OFF_PEAK', 1320, 1440),
  -- high-demand Saturday: standard 07-12 and 17-19
  (307, 3, 1, 'SATURDAY', 'OFF_PEAK', 0, 420),
  (308, 3, 1, 'SATURDAY', 'STANDARD', 420, 720),
  (309, 3, 1, 'SATURDAY', 'OFF_PEAK', 720, 1020),
  (310, 3, 1, 'SATURDAY', 'STANDARD', 1020, 1140),
  (311, 3, 1, 'SATURDAY', 'OFF_PEAK', 1140, 1440),
  -- high-demand Sunday: standard 17-19
  (312, 3, 1, 'SUNDAY', 'OFF_PEAK', 0, 1020),
  (313, 3, 1, 'SUNDAY', 'STANDARD', 1020, 1140),
  (314, 3, 1, 'SUNDAY', 'OFF_PEAK', 1140, 1440),
  -- low-demand weekday: peak 07-09 and 18-21, standard 06-07, 09-18 and 21-22
  (315, 3, 2, 'WEEKDAY', 'OFF_PEAK', 0, 360),
  (316, 3, 2, 'WEEKDAY', 'STANDARD', 360, 420),
  (317, 3, 2, 'WEEKDAY', 'PEAK', 420, 540),
  (318, 3, 2, 'WEEKDAY', 'STANDARD', 540, 1080),
  (319, 3, 2, 'WEEKDAY', 'PEAK', 1080, 1260),
  (320, 3, 2, 'WEEKDAY', 'STANDARD', 1260, 1320),
  (321, 3, 2, 'WEEKDAY', 'OFF_PEAK', 1320, 1440),
  -- low-demand Saturday: standard 07-12 and 18-20
  (322, 3, 2, 'SATURDAY', 'OFF_PEAK', 0, 420),
  (323, 3, 2, 'SATURDAY', 'STANDARD', 420, 720),
  (324, 3, 2, 'SATURDAY', 'OFF_PEAK', 720, 1080),
  (325, 3, 2, 'SATURDAY', 'STANDARD', 1080, 1200),
  (326, 3, 2, 'SATURDAY', 'OFF_PEAK', 1200, 1440),
  -- low-demand Sunday: standard 18-20
  (327, 3, 2, 'SUNDAY', 'OFF_PEAK', 0, 1080),
  (328, 3, 2, 'SUNDAY', 'STANDARD', 1080, 1200),
  (329, 3, 2, 'SUNDAY', 'OFF_PEAK', 1200, 1440);

-- Schedule 2 (City of Cape Town) copies schedule 3 onto Cape Town's seasons (ids 201-229);
-- schedule 4 (City Power) copies schedule 1 onto City Power's seasons (ids 401-425).
INSERT INTO tou_rules (id, schedule_id, season_id, day_type, period, start_minute, end_minute)
SELECT id - 100, 2, season_id + 6, day_type, period, start_minute, end_minute
FROM tou_rules WHERE schedule_id = 3;

INSERT INTO tou_rules (id, schedule_id, season_id, day_type, period, start_minute, end_minute)
SELECT id + 300, 4, season_id + 3, day_type, period, start_minute, end_minute
FROM tou_rules WHERE schedule_id = 1;

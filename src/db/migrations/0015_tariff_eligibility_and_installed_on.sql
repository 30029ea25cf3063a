-- Who may take a tariff, the versions of one tariff, and when a meter's supply began (extensions
-- §13.1, §13.2).

CREATE EXTENSION IF NOT EXISTS btree_gist;

ALTER TABLE tariffs
  ADD COLUMN customer_classes text[]
    CHECK (customer_classes <@ ARRAY['RESIDENTIAL', 'COMMERCIAL', 'INDUSTRIAL', 'AGRICULTURAL']::text[]),
  ADD COLUMN min_nmd_kva numeric(10, 3) CHECK (min_nmd_kva BETWEEN 0 AND 1000000),
  ADD COLUMN max_nmd_kva numeric(10, 3) CHECK (max_nmd_kva BETWEEN 0 AND 1000000),
  ADD COLUMN family text CHECK (char_length(family) BETWEEN 1 AND 100),
  ADD CONSTRAINT tariffs_nmd_bounds CHECK (min_nmd_kva <= max_nmd_kva),
  -- Two live versions of one family of one owner never hold the same day, whatever writes race.
  ADD CONSTRAINT tariffs_family_versions EXCLUDE USING gist (
    account_id WITH =, family WITH =, daterange(effective_from, effective_to, '[]') WITH &&
  ) WHERE (family IS NOT NULL AND deleted_at IS NULL);

-- The catalogue, from the suppliers' published conditions (shared reference, "Who may take which
-- tariff"): Homelight 20A / 60A residential with a supply of about 4.6 / 13.8 kVA; Homepower and
-- Homeflex residential up to 100 kVA; Miniflex an NMD of 16 kVA to 5 MVA; Megaflex above 1 MVA;
-- the municipalities' residential and business tariffs by their names.
UPDATE tariffs t SET family = c.family, customer_classes = c.classes, min_nmd_kva = c.min_kva, max_nmd_kva = c.max_kva
FROM (VALUES
  (1, 'eskom-homelight-20a', ARRAY['RESIDENTIAL'], NULL, 4.6),
  (3, 'eskom-homelight-20a', ARRAY['RESIDENTIAL'], NULL, 4.6),
  (2, 'eskom-homelight-60a', ARRAY['RESIDENTIAL'], NULL, 13.8),
  (4, 'eskom-homelight-60a', ARRAY['RESIDENTIAL'], NULL, 13.8),
  (5, 'eskom-homepower', ARRAY['RESIDENTIAL'], NULL, 100),
  (16, 'eskom-homepower', ARRAY['RESIDENTIAL'], NULL, 100),
  (6, 'eskom-homeflex-1', ARRAY['RESIDENTIAL'], NULL, 100),
  (17, 'eskom-homeflex-1', ARRAY['RESIDENTIAL'], NULL, 100),
  (7, 'eskom-miniflex', NULL, 16, 5000),
  (18, 'eskom-miniflex', NULL, 16, 5000),
  (8, 'eskom-megaflex', NULL, 1000, NULL),
  (19, 'eskom-megaflex', NULL, 1000, NULL),
  (9, 'city-power-prepaid-residential', ARRAY['RESIDENTIAL'], NULL, NULL),
  (15, 'city-power-prepaid-residential', ARRAY['RESIDENTIAL'], NULL, NULL),
  (10, 'city-power-business-tou', ARRAY['COMMERCIAL', 'INDUSTRIAL'], NULL, NULL),
  (11, 'cape-town-domestic', ARRAY['RESIDENTIAL'], NULL, NULL),
  (12, 'cape-town-sseg-feed-in', NULL, NULL, NULL),
  (13, 'cape-town-domestic-water', ARRAY['RESIDENTIAL'], NULL, NULL),
  (14, 'city-power-dynamic', NULL, NULL, NULL)
) AS c (id, family, classes, min_kva, max_kva)
WHERE t.id = c.id AND t.account_id = 'ca7a1060-0000-4000-8000-000000000001';

-- The local date from which the meter's supply is billed; null: the date of its first reading.
ALTER TABLE meters ADD COLUMN installed_on date;

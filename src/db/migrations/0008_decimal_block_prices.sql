-- Tier prices may carry up to 4 decimals of a cent (Eskom Homelight 60A: 232.31 c/kWh). The
-- catalogue's Homelight 2024/25 tiers, stored rounded to whole cents until now, take their exact prices.
ALTER TABLE tariff_blocks ALTER COLUMN unit_price_cents TYPE numeric(13, 4);

UPDATE tariff_blocks SET unit_price_cents = 190.28 WHERE id = 1011;
UPDATE tariff_blocks SET unit_price_cents = 215.62 WHERE id = 1012;
UPDATE tariff_blocks SET unit_price_cents = 232.31 WHERE id = 2011;
UPDATE tariff_blocks SET unit_price_cents = 394.86 WHERE id = 2012;
UPDATE tariffs SET notes = NULL WHERE id IN (1, 2) AND notes = 'Block prices rounded to whole cents.';

-- An invoice's money holds any bill the service computes, up to 9,999,999,999,999.99 in magnitude
-- (extensions §13.4 and §13.8): its figures as numeric(15, 2). The latest check's difference is the
-- invoice's total less the computed total, each within that bound, so up to twice it: numeric(16, 2).
ALTER TABLE invoices
  ALTER COLUMN subtotal TYPE numeric(15, 2),
  ALTER COLUMN tax TYPE numeric(15, 2),
  ALTER COLUMN total TYPE numeric(15, 2),
  ALTER COLUMN check_difference TYPE numeric(16, 2);

-- One row per application of a transition: the audit trail that shows each was applied once.
CREATE TABLE tariff_transition_applications (
  id serial PRIMARY KEY,
  transition_id integer NOT NULL REFERENCES tariff_transitions (id) ON DELETE CASCADE,
  applied_at timestamptz NOT NULL,
  meters_updated integer NOT NULL,
  configs_updated integer NOT NULL,
  applied_by text NOT NULL
);
CREATE INDEX tariff_transition_applications_transition_idx ON tariff_transition_applications (transition_id);

-- Every organization a user created, kept a day: a user creates at most
-- ORGANIZATIONS_PER_USER_PER_DAY organizations in any 24 hours, deleted ones included.
CREATE TABLE organization_creations (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX organization_creations_user_idx ON organization_creations (user_id, created_at);

-- Hosted agents (one row per agent; its identity seed sealed with HOSTING_SEED_KEY) and their secrets.
CREATE TABLE hosted_agents (
  address TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  name TEXT NOT NULL,
  readme TEXT,
  short_description TEXT,
  avatar_url TEXT,
  network TEXT NOT NULL DEFAULT 'testnet',
  sealed_seed TEXT NOT NULL,
  code TEXT,
  code_digest TEXT,
  code_update_timestamp TEXT,
  revision INTEGER NOT NULL DEFAULT 0,
  -- NULL until a load is tried, then 1 or 0.
  compiled INTEGER,
  running INTEGER NOT NULL DEFAULT 0,
  creation_timestamp TEXT NOT NULL
);
CREATE INDEX hosted_agents_by_account ON hosted_agents (account_id, name, address);

CREATE TABLE hosted_secrets (
  address TEXT NOT NULL REFERENCES hosted_agents (address) ON DELETE CASCADE,
  name TEXT NOT NULL,
  sealed_value TEXT NOT NULL,
  timestamp TEXT NOT NULL,
  PRIMARY KEY (address, name)
);

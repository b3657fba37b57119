-- Core registry storage: accounts and their API keys, proven agent identities, agents, ownership
-- challenges, interactions and the attestation nonces that make each interaction count once.
-- Timestamps are ISO 8601 UTC strings (what the wire carries), so they sort as text.

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
);

-- A key is `rdv_<id>_<secret>`: `id` finds the row, sha256(secret) is compared in constant time.
-- `permissions` is a JSON array of read | write | chat | keys; `limits` an optional JSON object.
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  name TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  permissions TEXT NOT NULL,
  limits TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT,
  last_used_at TEXT
);
CREATE INDEX api_keys_by_account ON api_keys (account_id);

-- An address belongs to the account that first proved it holds the seed (signed challenge).
CREATE TABLE identities (
  address TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  proven_at TEXT NOT NULL
);

-- Challenges we issued: single use and short-lived.
CREATE TABLE challenges (
  challenge TEXT PRIMARY KEY,
  address TEXT NOT NULL,
  account_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX challenges_by_expiry ON challenges (expires_at);

-- One row per registered agent. Not WITHOUT ROWID: search (0002) keys its indexes on the rowid.
-- account_id is NULL for an agent known only from a signed almanac attestation (older SDKs) until an
-- account proves the address and registers it.
-- JSON columns: use_cases [string], functions [{name, description, parameters:[{name, description}]}],
-- tags [string], domain_tags [{domain, label, color}], protocols [string], endpoints [{url, weight}],
-- profile {description, avatar_url, banner_url, starter_prompts}, geo_location object | NULL.
-- `status` (active | offline | local) is derived on every write from url, is_active and the last probe.
CREATE TABLE agents (
  address TEXT PRIMARY KEY,
  account_id TEXT REFERENCES accounts (id),
  name TEXT NOT NULL DEFAULT '',
  handle TEXT UNIQUE,
  url TEXT,
  endpoints TEXT NOT NULL DEFAULT '[]',
  readme TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL DEFAULT '',
  use_cases TEXT NOT NULL DEFAULT '[]',
  functions TEXT NOT NULL DEFAULT '[]',
  tags TEXT NOT NULL DEFAULT '[]',
  domain_tags TEXT NOT NULL DEFAULT '[]',
  protocols TEXT NOT NULL DEFAULT '[]',
  profile TEXT NOT NULL DEFAULT '{}',
  metadata TEXT,
  agent_type TEXT NOT NULL DEFAULT 'custom',
  category TEXT NOT NULL DEFAULT 'community',
  featured INTEGER NOT NULL DEFAULT 0,
  rating REAL,
  geo_location TEXT,
  status TEXT NOT NULL DEFAULT 'offline',
  is_active INTEGER NOT NULL DEFAULT 1,
  is_public INTEGER NOT NULL DEFAULT 1,
  last_status_update TEXT,
  -- Signed timestamps (unix seconds) of the newest status update and almanac attestation accepted:
  -- an older signed message is a replay and changes nothing.
  status_timestamp INTEGER,
  attestation_timestamp INTEGER,
  last_probe_at TEXT,
  last_probe_ok INTEGER,
  last_probe_detail TEXT,
  total_interactions INTEGER NOT NULL DEFAULT 0,
  recent_interactions INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  last_updated TEXT NOT NULL
);
CREATE INDEX agents_by_account ON agents (account_id);
CREATE INDEX agents_by_probe ON agents (last_probe_at);

-- Counted interactions (POST /v2/agents/interactions, proxy submits); recent = last 30 days.
CREATE TABLE interactions (
  id INTEGER PRIMARY KEY,
  target TEXT NOT NULL,
  source TEXT NOT NULL,
  session_id TEXT,
  kind TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE INDEX interactions_by_target ON interactions (target, at);

-- Attestation nonces seen, kept until their attestation's validity ends (replays count nothing).
CREATE TABLE attestation_nonces (
  nonce TEXT PRIMARY KEY,
  address TEXT NOT NULL,
  valid_to INTEGER NOT NULL
);
CREATE INDEX attestation_nonces_by_expiry ON attestation_nonces (valid_to);

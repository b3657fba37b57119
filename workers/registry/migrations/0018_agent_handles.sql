-- Handles are unique over the whole registry, whichever shard holds the agent (docs/decisions/0204).
-- agents.handle UNIQUE holds within one database only: two registrations racing for one handle on two shards
-- could both pass a look at every shard. The claim here, on the home database, is made before the agent row
-- is written; this table's primary key decides the race. One database is the same table, the same code path.
-- A shard other than home has the table too (every shard has the full schema) but never reads or writes it.
CREATE TABLE agent_handles (
  handle TEXT PRIMARY KEY,
  address TEXT NOT NULL,
  claimed_at TEXT NOT NULL
) WITHOUT ROWID;
-- A handle change or deletion releases the agent's other claims by its address.
CREATE INDEX agent_handles_by_address ON agent_handles (address);

-- Every handle held today: deployed registries are one database (AGENT_SHARDS empty), so home holds them all.
INSERT INTO agent_handles (handle, address, claimed_at)
SELECT handle, address, last_updated FROM agents WHERE handle IS NOT NULL;

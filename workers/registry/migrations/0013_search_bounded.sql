-- Bounded search at a million agents (docs/decisions/0166, docs/scale.md).
--
-- 1. A quality prior per agent: the factors ranking multiplies every match's bm25 by that do not depend on
--    the query (search/ranking.ts: recent interactions, featured, the last liveness verdict), as a virtual
--    generated column, so every write path keeps it without a trigger of its own.
-- 2. Listed agents whose prior is high carry the token `preferred` in the FTS `listing` column (beside
--    `unlisted` for agents not listed). A query whose every word is in a large share of the registry ranks only
--    `(words) AND listing:preferred`: FTS5 intersects the two doclists and bm25 scores that intersection, not
--    the hundreds of thousands of agents that mention "data" (search/agent-text-sql.ts).
--    PREFERRED_PRIOR (1.135): featured agents with a few hundred recent interactions, or any agent with
--    thousands; unreachable agents never. The listing trigger re-indexes an agent only when its token changes.
-- 3. A counter of listed agents, kept by triggers on agents, so an unfiltered listing's total is one row read
--    instead of a count over every listed agent.

ALTER TABLE agents ADD COLUMN quality_prior REAL GENERATED ALWAYS AS (
  (1 + 0.15 * coalesce(recent_interactions, 0) / (coalesce(recent_interactions, 0) + 500.0))
  * (1 + 0.1 * coalesce(featured, 0))
  * (CASE WHEN last_probe_ok = 0 THEN 0.35 ELSE 1 END)
) VIRTUAL;

ALTER TABLE agents ADD COLUMN search_listing TEXT GENERATED ALWAYS AS (
  CASE
    WHEN coalesce(is_active, 0) != 1 OR coalesce(is_public, 0) != 1 THEN 'unlisted'
    WHEN quality_prior >= 1.135 THEN 'preferred'
  END
) VIRTUAL;

DROP TRIGGER search_agents_after_insert;
DROP TRIGGER search_agents_after_update;
DROP TRIGGER search_agents_after_listing;

-- As in 0003, with the listing column read from search_listing.
CREATE TRIGGER search_agents_after_insert AFTER INSERT ON agents BEGIN
  DELETE FROM search_agents_fts WHERE rowid = NEW.rowid;
  INSERT INTO search_agents_fts (rowid, name, tags, description, use_cases, functions, readme, address, listing)
  VALUES (
    NEW.rowid, NEW.name,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.tags) THEN NEW.tags ELSE '[]' END)),
    NEW.description,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.use_cases) THEN NEW.use_cases ELSE '[]' END)),
    (SELECT group_concat(coalesce(json_extract(value, '$.name'), '') || ' ' || coalesce(json_extract(value, '$.description'), ''), ' ')
       FROM json_each(CASE WHEN json_valid(NEW.functions) THEN NEW.functions ELSE '[]' END)),
    NEW.readme, NEW.address,
    NEW.search_listing
  );
  DELETE FROM search_words WHERE rowid = NEW.rowid;
  INSERT INTO search_words (rowid, body) VALUES (
    NEW.rowid,
    coalesce(NEW.name, '') || ' ' || coalesce(NEW.tags, '') || ' ' || coalesce(NEW.description, '') || ' ' ||
    coalesce(NEW.use_cases, '') || ' ' || coalesce(NEW.readme, '')
  );
  DELETE FROM search_agent_tags WHERE agent_rowid = NEW.rowid;
  INSERT OR IGNORE INTO search_agent_tags (agent_rowid, tag)
    SELECT NEW.rowid, lower(trim(value)) FROM json_each(CASE WHEN json_valid(NEW.tags) THEN NEW.tags ELSE '[]' END) WHERE type = 'text';
  DELETE FROM search_agent_protocols WHERE agent_rowid = NEW.rowid;
  INSERT OR IGNORE INTO search_agent_protocols (agent_rowid, digest)
    SELECT NEW.rowid, value FROM json_each(CASE WHEN json_valid(NEW.protocols) THEN NEW.protocols ELSE '[]' END) WHERE type = 'text';
END;

CREATE TRIGGER search_agents_after_update AFTER UPDATE OF name, tags, description, use_cases, functions, readme, protocols ON agents BEGIN
  DELETE FROM search_agents_fts WHERE rowid = OLD.rowid;
  INSERT INTO search_agents_fts (rowid, name, tags, description, use_cases, functions, readme, address, listing)
  VALUES (
    NEW.rowid, NEW.name,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.tags) THEN NEW.tags ELSE '[]' END)),
    NEW.description,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.use_cases) THEN NEW.use_cases ELSE '[]' END)),
    (SELECT group_concat(coalesce(json_extract(value, '$.name'), '') || ' ' || coalesce(json_extract(value, '$.description'), ''), ' ')
       FROM json_each(CASE WHEN json_valid(NEW.functions) THEN NEW.functions ELSE '[]' END)),
    NEW.readme, NEW.address,
    NEW.search_listing
  );
  DELETE FROM search_words WHERE rowid = OLD.rowid;
  INSERT INTO search_words (rowid, body) VALUES (
    NEW.rowid,
    coalesce(NEW.name, '') || ' ' || coalesce(NEW.tags, '') || ' ' || coalesce(NEW.description, '') || ' ' ||
    coalesce(NEW.use_cases, '') || ' ' || coalesce(NEW.readme, '')
  );
  DELETE FROM search_agent_tags WHERE agent_rowid = OLD.rowid;
  INSERT OR IGNORE INTO search_agent_tags (agent_rowid, tag)
    SELECT NEW.rowid, lower(trim(value)) FROM json_each(CASE WHEN json_valid(NEW.tags) THEN NEW.tags ELSE '[]' END) WHERE type = 'text';
  DELETE FROM search_agent_protocols WHERE agent_rowid = OLD.rowid;
  INSERT OR IGNORE INTO search_agent_protocols (agent_rowid, digest)
    SELECT NEW.rowid, value FROM json_each(CASE WHEN json_valid(NEW.protocols) THEN NEW.protocols ELSE '[]' END) WHERE type = 'text';
END;

-- An agent whose listing token changes (listed or not, preferred or not) is re-indexed with it. Only on a
-- change: status and interaction updates rewrite these columns all the time.
CREATE TRIGGER search_agents_after_listing AFTER UPDATE OF is_active, is_public, featured, recent_interactions, last_probe_ok ON agents
WHEN OLD.search_listing IS NOT NEW.search_listing
BEGIN
  DELETE FROM search_agents_fts WHERE rowid = OLD.rowid;
  INSERT INTO search_agents_fts (rowid, name, tags, description, use_cases, functions, readme, address, listing)
  VALUES (
    NEW.rowid, NEW.name,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.tags) THEN NEW.tags ELSE '[]' END)),
    NEW.description,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.use_cases) THEN NEW.use_cases ELSE '[]' END)),
    (SELECT group_concat(coalesce(json_extract(value, '$.name'), '') || ' ' || coalesce(json_extract(value, '$.description'), ''), ' ')
       FROM json_each(CASE WHEN json_valid(NEW.functions) THEN NEW.functions ELSE '[]' END)),
    NEW.readme, NEW.address,
    NEW.search_listing
  );
END;

-- The agents already preferred, re-indexed with the token.
DELETE FROM search_agents_fts WHERE rowid IN (SELECT rowid FROM agents WHERE search_listing = 'preferred');
INSERT INTO search_agents_fts (rowid, name, tags, description, use_cases, functions, readme, address, listing)
  SELECT
    rowid, name,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(tags) THEN tags ELSE '[]' END)),
    description,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(use_cases) THEN use_cases ELSE '[]' END)),
    (SELECT group_concat(coalesce(json_extract(value, '$.name'), '') || ' ' || coalesce(json_extract(value, '$.description'), ''), ' ')
       FROM json_each(CASE WHEN json_valid(functions) THEN functions ELSE '[]' END)),
    readme, address,
    search_listing
  FROM agents WHERE search_listing = 'preferred';

CREATE TABLE search_listed_total (
  id INTEGER PRIMARY KEY CHECK (id = 0),
  listed INTEGER NOT NULL
);
INSERT INTO search_listed_total (id, listed)
  SELECT 0, count(*) FROM agents WHERE coalesce(is_active, 0) = 1 AND coalesce(is_public, 0) = 1;

CREATE TRIGGER search_listed_total_after_insert AFTER INSERT ON agents
WHEN coalesce(NEW.is_active, 0) = 1 AND coalesce(NEW.is_public, 0) = 1
BEGIN
  UPDATE search_listed_total SET listed = listed + 1 WHERE id = 0;
END;

CREATE TRIGGER search_listed_total_after_delete AFTER DELETE ON agents
WHEN coalesce(OLD.is_active, 0) = 1 AND coalesce(OLD.is_public, 0) = 1
BEGIN
  UPDATE search_listed_total SET listed = listed - 1 WHERE id = 0;
END;

CREATE TRIGGER search_listed_total_after_update AFTER UPDATE OF is_active, is_public ON agents
WHEN (coalesce(OLD.is_active, 0) = 1 AND coalesce(OLD.is_public, 0) = 1) != (coalesce(NEW.is_active, 0) = 1 AND coalesce(NEW.is_public, 0) = 1)
BEGIN
  UPDATE search_listed_total
    SET listed = listed + (CASE WHEN coalesce(NEW.is_active, 0) = 1 AND coalesce(NEW.is_public, 0) = 1 THEN 1 ELSE -1 END) WHERE id = 0;
END;

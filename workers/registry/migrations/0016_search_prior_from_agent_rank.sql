-- The quality prior reads the signals ranking trusts (docs/decisions/0198): AgentRank, text quality, featured
-- and liveness, the query-independent factors of search/ranking.ts, no longer `recent_interactions`, which one
-- owner's agents messaging each other raise (each pair 10 a day, any number of pairs). 0013's prior let a
-- featured agent with ~135 recent interactions, or any agent with ~4,500, carry the FTS token `preferred`, which
-- decides which agents a query of only common words ranks (docs/decisions/0166).
--
-- quality_prior = (1 + 0.2·a/(a + 1)) × q × (1 + 0.1·featured) × (0.35 when the last probe failed), with
-- a = agent_rank and q = text_quality, as ranking.ts multiplies them into every match's score. The preferred
-- line stays 1.135: an honest agent (q = 1) needs AgentRank ≥ 2.1 (the graph's mean is below 1), a featured one
-- ≥ 0.19; an agent whose text quality is below 0.86 (keyword stuffing) or whose probe failed, never. The
-- listing trigger now follows agent_rank and text_quality instead of recent_interactions.

-- Agents that carry `preferred` under 0013's prior: with those that carry it under the new one, the rows the
-- FTS index is rewritten for below.
CREATE TABLE search_listing_recomputed (agent_rowid INTEGER PRIMARY KEY);
INSERT INTO search_listing_recomputed (agent_rowid) SELECT rowid FROM agents WHERE search_listing = 'preferred';

-- Generated columns cannot be altered: dropped (with the triggers that read them) and added again.
DROP TRIGGER search_agents_after_insert;
DROP TRIGGER search_agents_after_update;
DROP TRIGGER search_agents_after_listing;
ALTER TABLE agents DROP COLUMN search_listing;
ALTER TABLE agents DROP COLUMN quality_prior;

ALTER TABLE agents ADD COLUMN quality_prior REAL GENERATED ALWAYS AS (
  (1 + 0.2 * agent_rank / (agent_rank + 1.0))
  * text_quality
  * (1 + 0.1 * coalesce(featured, 0))
  * (CASE WHEN last_probe_ok = 0 THEN 0.35 ELSE 1 END)
) VIRTUAL;

ALTER TABLE agents ADD COLUMN search_listing TEXT GENERATED ALWAYS AS (
  CASE
    WHEN coalesce(is_active, 0) != 1 OR coalesce(is_public, 0) != 1 THEN 'unlisted'
    WHEN quality_prior >= 1.135 THEN 'preferred'
  END
) VIRTUAL;

-- 0013's triggers, unchanged: they read search_listing, so they were dropped with it.
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
CREATE TRIGGER search_agents_after_listing AFTER UPDATE OF is_active, is_public, featured, agent_rank, text_quality, last_probe_ok ON agents
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

-- Every agent whose token changes, re-indexed with its new one: preferred before or after.
INSERT OR IGNORE INTO search_listing_recomputed (agent_rowid) SELECT rowid FROM agents WHERE search_listing = 'preferred';
DELETE FROM search_agents_fts WHERE rowid IN (SELECT agent_rowid FROM search_listing_recomputed);
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
  FROM agents WHERE rowid IN (SELECT agent_rowid FROM search_listing_recomputed);
DROP TABLE search_listing_recomputed;

-- The full-text index learns which agents are listed (public and active), so a search's exact total is
-- an FTS5 count — `(words) NOT listing:unlisted` — instead of a lookup of every match in
-- search_agent_facts (at 100,000 agents a common word has tens of thousands of matches; see
-- docs/decisions.md). The `listing` column holds the one token `unlisted` for agents not listed and nothing
-- for listed ones; bm25 gives it weight 0 and user words are matched outside it (search/text/fts-query.ts).

DROP TRIGGER search_agents_after_insert;
DROP TRIGGER search_agents_after_update;
DROP TRIGGER search_agents_after_delete;
DROP TABLE search_agents_fts;

CREATE VIRTUAL TABLE search_agents_fts USING fts5(
  name, tags, description, use_cases, functions, readme, address, listing,
  tokenize = 'porter unicode61 remove_diacritics 2',
  prefix = '2 3'
);

INSERT INTO search_agents_fts (rowid, name, tags, description, use_cases, functions, readme, address, listing)
  SELECT rowid, name,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(tags) THEN tags ELSE '[]' END)),
    description,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(use_cases) THEN use_cases ELSE '[]' END)),
    (SELECT group_concat(coalesce(json_extract(value, '$.name'), '') || ' ' || coalesce(json_extract(value, '$.description'), ''), ' ')
       FROM json_each(CASE WHEN json_valid(functions) THEN functions ELSE '[]' END)),
    readme, address,
    CASE WHEN coalesce(is_active, 0) = 1 AND coalesce(is_public, 0) = 1 THEN NULL ELSE 'unlisted' END
  FROM agents;

-- As in 0002, with the listing column.
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
    CASE WHEN coalesce(NEW.is_active, 0) = 1 AND coalesce(NEW.is_public, 0) = 1 THEN NULL ELSE 'unlisted' END
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
    CASE WHEN coalesce(NEW.is_active, 0) = 1 AND coalesce(NEW.is_public, 0) = 1 THEN NULL ELSE 'unlisted' END
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

-- An agent that becomes listed or unlisted (deactivated, reactivated, made private) is re-indexed with its
-- new listing. Only on a change: status updates rewrite is_active with the same value all the time.
CREATE TRIGGER search_agents_after_listing AFTER UPDATE OF is_active, is_public ON agents
WHEN (coalesce(OLD.is_active, 0) = 1 AND coalesce(OLD.is_public, 0) = 1) != (coalesce(NEW.is_active, 0) = 1 AND coalesce(NEW.is_public, 0) = 1)
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
    CASE WHEN coalesce(NEW.is_active, 0) = 1 AND coalesce(NEW.is_public, 0) = 1 THEN NULL ELSE 'unlisted' END
  );
END;

CREATE TRIGGER search_agents_after_delete AFTER DELETE ON agents BEGIN
  DELETE FROM search_agents_fts WHERE rowid = OLD.rowid;
  DELETE FROM search_words WHERE rowid = OLD.rowid;
  DELETE FROM search_agent_tags WHERE agent_rowid = OLD.rowid;
  DELETE FROM search_agent_protocols WHERE agent_rowid = OLD.rowid;
END;

-- A second FTS index holding only the preferred agents (docs/decisions/0200). A query narrowed to preferred
-- agents (docs/decisions/0166) read `(words) AND listing:preferred` from search_agents_fts, and bm25 still walked
-- each word's whole doclist to count it: "data" is in 351,000 of a million agents, 38 ms for its ~15,000 preferred
-- matches. Here its doclist is the preferred agents' only (4 % of the generated million): 6 ms. The columns are
-- search_agents_fts's, so ranking's column weights apply unchanged; `listing` always holds `preferred`.
CREATE VIRTUAL TABLE search_preferred_fts USING fts5(
  name, tags, description, use_cases, functions, readme, address, listing,
  tokenize = 'porter unicode61 remove_diacritics 2',
  prefix = '2 3'
);

-- The agent's text as search_agents_fts holds it, when it carries the token `preferred` (0016): the three
-- triggers that write search_agents_fts write this index too, and deleting an agent removes it.
CREATE TRIGGER search_preferred_after_insert AFTER INSERT ON agents WHEN NEW.search_listing = 'preferred' BEGIN
  DELETE FROM search_preferred_fts WHERE rowid = NEW.rowid;
  INSERT INTO search_preferred_fts (rowid, name, tags, description, use_cases, functions, readme, address, listing)
  VALUES (
    NEW.rowid, NEW.name,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.tags) THEN NEW.tags ELSE '[]' END)),
    NEW.description,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.use_cases) THEN NEW.use_cases ELSE '[]' END)),
    (SELECT group_concat(coalesce(json_extract(value, '$.name'), '') || ' ' || coalesce(json_extract(value, '$.description'), ''), ' ')
       FROM json_each(CASE WHEN json_valid(NEW.functions) THEN NEW.functions ELSE '[]' END)),
    NEW.readme, NEW.address, NEW.search_listing
  );
END;

CREATE TRIGGER search_preferred_after_update AFTER UPDATE OF name, tags, description, use_cases, functions, readme ON agents BEGIN
  DELETE FROM search_preferred_fts WHERE rowid = OLD.rowid;
  INSERT INTO search_preferred_fts (rowid, name, tags, description, use_cases, functions, readme, address, listing)
  SELECT
    NEW.rowid, NEW.name,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.tags) THEN NEW.tags ELSE '[]' END)),
    NEW.description,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.use_cases) THEN NEW.use_cases ELSE '[]' END)),
    (SELECT group_concat(coalesce(json_extract(value, '$.name'), '') || ' ' || coalesce(json_extract(value, '$.description'), ''), ' ')
       FROM json_each(CASE WHEN json_valid(NEW.functions) THEN NEW.functions ELSE '[]' END)),
    NEW.readme, NEW.address, NEW.search_listing
  WHERE NEW.search_listing = 'preferred';
END;

-- Only on a change of the token, as search_agents_after_listing: status and interaction updates are constant.
CREATE TRIGGER search_preferred_after_listing AFTER UPDATE OF is_active, is_public, featured, agent_rank, text_quality, last_probe_ok ON agents
WHEN OLD.search_listing IS NOT NEW.search_listing
BEGIN
  DELETE FROM search_preferred_fts WHERE rowid = OLD.rowid;
  INSERT INTO search_preferred_fts (rowid, name, tags, description, use_cases, functions, readme, address, listing)
  SELECT
    NEW.rowid, NEW.name,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.tags) THEN NEW.tags ELSE '[]' END)),
    NEW.description,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.use_cases) THEN NEW.use_cases ELSE '[]' END)),
    (SELECT group_concat(coalesce(json_extract(value, '$.name'), '') || ' ' || coalesce(json_extract(value, '$.description'), ''), ' ')
       FROM json_each(CASE WHEN json_valid(NEW.functions) THEN NEW.functions ELSE '[]' END)),
    NEW.readme, NEW.address, NEW.search_listing
  WHERE NEW.search_listing = 'preferred';
END;

CREATE TRIGGER search_preferred_after_delete AFTER DELETE ON agents BEGIN
  DELETE FROM search_preferred_fts WHERE rowid = OLD.rowid;
END;

-- The preferred agents already indexed, copied from search_agents_fts's stored text (the same columns).
INSERT INTO search_preferred_fts (rowid, name, tags, description, use_cases, functions, readme, address, listing)
  SELECT rowid, name, tags, description, use_cases, functions, readme, address, listing
  FROM search_agents_fts WHERE search_agents_fts MATCH 'listing : preferred';

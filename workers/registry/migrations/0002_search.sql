-- Search indexes over the agents table of 0001_core.sql, kept in step by triggers so every write path
-- (registration, status updates, probes, imports) feeds search without calling search code.

-- Field-weighted full text: bm25 weights are given per column at query time (search/ranking.ts).
-- Porter stemming over unicode61 with diacritics folded: "forecasts" finds "forecast", "café" finds "cafe".
CREATE VIRTUAL TABLE search_agents_fts USING fts5(
  name, tags, description, use_cases, functions, readme, address,
  tokenize = 'porter unicode61 remove_diacritics 2',
  prefix = '2 3'
);

-- The same words unstemmed, index only (contentless): its vocabulary is the dictionary typo correction
-- and prefix checks look words up in (search/text/typos.ts).
CREATE VIRTUAL TABLE search_words USING fts5(
  body,
  content = '',
  contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE search_words_vocab USING fts5vocab(search_words, 'row');

-- Normalised tags and protocols, so filters on them are index lookups instead of JSON scans.
CREATE TABLE search_agent_tags (
  agent_rowid INTEGER NOT NULL,
  tag TEXT NOT NULL,
  PRIMARY KEY (tag, agent_rowid)
) WITHOUT ROWID;
CREATE INDEX search_agent_tags_by_agent ON search_agent_tags (agent_rowid);

CREATE TABLE search_agent_protocols (
  agent_rowid INTEGER NOT NULL,
  digest TEXT NOT NULL,
  PRIMARY KEY (digest, agent_rowid)
) WITHOUT ROWID;
CREATE INDEX search_agent_protocols_by_agent ON search_agent_protocols (agent_rowid);

-- What filters, sorts and ranking read of an agent, in a narrow table: scanning thousands of matches
-- must not read the wide agents rows (READMEs). Kept in step by the triggers below.
CREATE TABLE search_agent_facts (
  agent_rowid INTEGER PRIMARY KEY,
  address TEXT NOT NULL,
  is_active INTEGER NOT NULL,
  is_public INTEGER NOT NULL,
  last_probe_ok INTEGER,
  category TEXT,
  agent_type TEXT,
  featured INTEGER NOT NULL,
  has_readme INTEGER NOT NULL,
  has_location INTEGER NOT NULL,
  recent_interactions INTEGER NOT NULL,
  total_interactions INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  last_updated TEXT NOT NULL
);
-- Browse orders of listed agents: the equality prefix (is_active, is_public) then the sort key, so a page
-- is read in order from the index instead of sorting every agent.
CREATE INDEX search_facts_by_created ON search_agent_facts (is_active, is_public, created_at, address);
CREATE INDEX search_facts_by_updated ON search_agent_facts (is_active, is_public, last_updated, address);
CREATE INDEX search_facts_by_interactions ON search_agent_facts (is_active, is_public, total_interactions, address);
CREATE INDEX search_facts_by_popularity ON search_agent_facts (is_active, is_public, featured, recent_interactions, address);
-- Counts and browses filtered by category or type.
CREATE INDEX search_facts_by_kind ON search_agent_facts (is_active, is_public, category, agent_type);

CREATE TRIGGER search_facts_after_insert AFTER INSERT ON agents BEGIN
  INSERT OR REPLACE INTO search_agent_facts VALUES (
    NEW.rowid, NEW.address, coalesce(NEW.is_active, 0), coalesce(NEW.is_public, 0), NEW.last_probe_ok, NEW.category, NEW.agent_type,
    coalesce(NEW.featured, 0), length(trim(coalesce(NEW.readme, ''))) > 0, NEW.geo_location IS NOT NULL,
    coalesce(NEW.recent_interactions, 0), coalesce(NEW.total_interactions, 0), NEW.created_at, NEW.last_updated
  );
END;
CREATE TRIGGER search_facts_after_update AFTER UPDATE ON agents BEGIN
  DELETE FROM search_agent_facts WHERE agent_rowid = OLD.rowid;
  INSERT OR REPLACE INTO search_agent_facts VALUES (
    NEW.rowid, NEW.address, coalesce(NEW.is_active, 0), coalesce(NEW.is_public, 0), NEW.last_probe_ok, NEW.category, NEW.agent_type,
    coalesce(NEW.featured, 0), length(trim(coalesce(NEW.readme, ''))) > 0, NEW.geo_location IS NOT NULL,
    coalesce(NEW.recent_interactions, 0), coalesce(NEW.total_interactions, 0), NEW.created_at, NEW.last_updated
  );
END;
CREATE TRIGGER search_facts_after_delete AFTER DELETE ON agents BEGIN
  DELETE FROM search_agent_facts WHERE agent_rowid = OLD.rowid;
END;

CREATE TRIGGER search_agents_after_insert AFTER INSERT ON agents BEGIN
  DELETE FROM search_agents_fts WHERE rowid = NEW.rowid;
  INSERT INTO search_agents_fts (rowid, name, tags, description, use_cases, functions, readme, address)
  VALUES (
    NEW.rowid, NEW.name,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.tags) THEN NEW.tags ELSE '[]' END)),
    NEW.description,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.use_cases) THEN NEW.use_cases ELSE '[]' END)),
    (SELECT group_concat(coalesce(json_extract(value, '$.name'), '') || ' ' || coalesce(json_extract(value, '$.description'), ''), ' ')
       FROM json_each(CASE WHEN json_valid(NEW.functions) THEN NEW.functions ELSE '[]' END)),
    NEW.readme, NEW.address
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
  INSERT INTO search_agents_fts (rowid, name, tags, description, use_cases, functions, readme, address)
  VALUES (
    NEW.rowid, NEW.name,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.tags) THEN NEW.tags ELSE '[]' END)),
    NEW.description,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(NEW.use_cases) THEN NEW.use_cases ELSE '[]' END)),
    (SELECT group_concat(coalesce(json_extract(value, '$.name'), '') || ' ' || coalesce(json_extract(value, '$.description'), ''), ' ')
       FROM json_each(CASE WHEN json_valid(NEW.functions) THEN NEW.functions ELSE '[]' END)),
    NEW.readme, NEW.address
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

CREATE TRIGGER search_agents_after_delete AFTER DELETE ON agents BEGIN
  DELETE FROM search_agents_fts WHERE rowid = OLD.rowid;
  DELETE FROM search_words WHERE rowid = OLD.rowid;
  DELETE FROM search_agent_tags WHERE agent_rowid = OLD.rowid;
  DELETE FROM search_agent_protocols WHERE agent_rowid = OLD.rowid;
END;

-- One row per search session (search_id). `started_at` freezes the click feedback a session ranks with,
-- so its pages stay consistent while new clicks arrive.
CREATE TABLE search_sessions (
  search_id TEXT PRIMARY KEY,
  query_key TEXT NOT NULL,
  source TEXT,
  started_at TEXT NOT NULL
);

-- A user chose `address` in a session's results. One per (session, agent): repeated clicks do not pile up.
CREATE TABLE search_clicks (
  search_id TEXT NOT NULL,
  address TEXT NOT NULL,
  query_key TEXT NOT NULL,
  page_index INTEGER NOT NULL,
  clicked_at TEXT NOT NULL,
  PRIMARY KEY (search_id, address)
) WITHOUT ROWID;
CREATE INDEX search_clicks_by_query ON search_clicks (query_key, address, clicked_at);

-- Which agents are embedded in Vectorize, as of which agent version (semantic search, deployed only).
CREATE TABLE search_embeddings (
  address TEXT PRIMARY KEY,
  vector_id TEXT NOT NULL,
  source_updated TEXT
);
CREATE INDEX search_embeddings_by_vector ON search_embeddings (vector_id);

-- Agents registered before this migration.
INSERT INTO search_agent_facts
  SELECT rowid, address, coalesce(is_active, 0), coalesce(is_public, 0), last_probe_ok, category, agent_type, coalesce(featured, 0),
    length(trim(coalesce(readme, ''))) > 0, geo_location IS NOT NULL, coalesce(recent_interactions, 0),
    coalesce(total_interactions, 0), created_at, last_updated
  FROM agents;
INSERT INTO search_agents_fts (rowid, name, tags, description, use_cases, functions, readme, address)
  SELECT rowid, name,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(tags) THEN tags ELSE '[]' END)),
    description,
    (SELECT group_concat(value, ' ') FROM json_each(CASE WHEN json_valid(use_cases) THEN use_cases ELSE '[]' END)),
    (SELECT group_concat(coalesce(json_extract(value, '$.name'), '') || ' ' || coalesce(json_extract(value, '$.description'), ''), ' ')
       FROM json_each(CASE WHEN json_valid(functions) THEN functions ELSE '[]' END)),
    readme, address
  FROM agents;
INSERT INTO search_words (rowid, body)
  SELECT rowid, coalesce(name, '') || ' ' || coalesce(tags, '') || ' ' || coalesce(description, '') || ' ' || coalesce(use_cases, '') || ' ' || coalesce(readme, '')
  FROM agents;
INSERT OR IGNORE INTO search_agent_tags (agent_rowid, tag)
  SELECT agents.rowid, lower(trim(j.value)) FROM agents, json_each(CASE WHEN json_valid(agents.tags) THEN agents.tags ELSE '[]' END) j WHERE j.type = 'text';
INSERT OR IGNORE INTO search_agent_protocols (agent_rowid, digest)
  SELECT agents.rowid, j.value FROM agents, json_each(CASE WHEN json_valid(agents.protocols) THEN agents.protocols ELSE '[]' END) j WHERE j.type = 'text';

-- Function search: what each agent declares it can be called with. `payload` rows come from the agent's
-- README `<payload_requirements>` (agents.functions), `protocol` rows from its registered protocols.
CREATE TABLE search_functions (
  id INTEGER PRIMARY KEY,
  agent_rowid INTEGER NOT NULL,
  ordinal INTEGER NOT NULL,
  function_type TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  parameters TEXT NOT NULL,
  protocol_digest TEXT
);
CREATE INDEX search_functions_by_agent ON search_functions (agent_rowid);
CREATE VIRTUAL TABLE search_functions_fts USING fts5(
  name, description, parameters, agent_name,
  tokenize = 'porter unicode61 remove_diacritics 2',
  prefix = '2 3'
);

CREATE TRIGGER search_functions_after_insert AFTER INSERT ON search_functions BEGIN
  INSERT INTO search_functions_fts (rowid, name, description, parameters, agent_name)
  VALUES (
    NEW.id, NEW.name, NEW.description,
    (SELECT group_concat(coalesce(json_extract(value, '$.name'), '') || ' ' || coalesce(json_extract(value, '$.description'), ''), ' ') FROM json_each(NEW.parameters)),
    (SELECT name FROM agents WHERE rowid = NEW.agent_rowid)
  );
END;
CREATE TRIGGER search_functions_after_delete AFTER DELETE ON search_functions BEGIN
  DELETE FROM search_functions_fts WHERE rowid = OLD.id;
END;

CREATE TRIGGER search_functions_agent_insert AFTER INSERT ON agents BEGIN
  DELETE FROM search_functions WHERE agent_rowid = NEW.rowid;
  INSERT INTO search_functions (agent_rowid, ordinal, function_type, name, description, parameters, protocol_digest)
    SELECT NEW.rowid, CAST(f.key AS INTEGER), 'payload',
      coalesce(json_extract(f.value, '$.name'), 'payload'),
      coalesce(json_extract(f.value, '$.description'), ''),
      coalesce(json_extract(f.value, '$.parameters'), '[]'),
      json_extract(f.value, '$.protocol_digest')
    FROM json_each(CASE WHEN json_valid(NEW.functions) THEN NEW.functions ELSE '[]' END) f WHERE f.type = 'object';
  INSERT INTO search_functions (agent_rowid, ordinal, function_type, name, description, parameters, protocol_digest)
    SELECT NEW.rowid, 1000 + CAST(p.key AS INTEGER), 'protocol', p.value, '', '[]', p.value
    FROM json_each(CASE WHEN json_valid(NEW.protocols) THEN NEW.protocols ELSE '[]' END) p WHERE p.type = 'text';
END;
CREATE TRIGGER search_functions_agent_update AFTER UPDATE OF name, functions, protocols ON agents BEGIN
  DELETE FROM search_functions WHERE agent_rowid = OLD.rowid;
  INSERT INTO search_functions (agent_rowid, ordinal, function_type, name, description, parameters, protocol_digest)
    SELECT NEW.rowid, CAST(f.key AS INTEGER), 'payload',
      coalesce(json_extract(f.value, '$.name'), 'payload'),
      coalesce(json_extract(f.value, '$.description'), ''),
      coalesce(json_extract(f.value, '$.parameters'), '[]'),
      json_extract(f.value, '$.protocol_digest')
    FROM json_each(CASE WHEN json_valid(NEW.functions) THEN NEW.functions ELSE '[]' END) f WHERE f.type = 'object';
  INSERT INTO search_functions (agent_rowid, ordinal, function_type, name, description, parameters, protocol_digest)
    SELECT NEW.rowid, 1000 + CAST(p.key AS INTEGER), 'protocol', p.value, '', '[]', p.value
    FROM json_each(CASE WHEN json_valid(NEW.protocols) THEN NEW.protocols ELSE '[]' END) p WHERE p.type = 'text';
END;
CREATE TRIGGER search_functions_agent_delete AFTER DELETE ON agents BEGIN
  DELETE FROM search_functions WHERE agent_rowid = OLD.rowid;
END;

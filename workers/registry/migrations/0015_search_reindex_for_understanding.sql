-- The concept lexicon (search/concepts/lexicon.ts) and the stopwords (search/text/stopwords.ts) changed
-- (docs/decisions/0184): both shape what an agent's stored concept postings and word vector hold, so every
-- agent is marked pending and indexed again by the cron, as 0014 marked agents registered before it (0138).
INSERT OR REPLACE INTO search_semantic_pending (agent_rowid, mark) SELECT rowid, random() & 9007199254740991 FROM agents;

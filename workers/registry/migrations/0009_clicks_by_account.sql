-- Click feedback is capped per account, agent and day (workers/registry/src/search/clicks.ts): each click
-- remembers the account whose key sent it. Older clicks have none and count towards no cap.
ALTER TABLE search_clicks ADD COLUMN account_id TEXT;
CREATE INDEX search_clicks_by_account ON search_clicks (account_id, address, clicked_at);

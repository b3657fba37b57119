-- Fixed-window counters for rate limits and daily caps (workers/registry/src/limits); the cron deletes expired windows.
CREATE TABLE rate_windows (
  bucket TEXT PRIMARY KEY,
  count INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX rate_windows_by_expiry ON rate_windows (expires_at);

-- The cron forgets search sessions and clicks by age (interactions/store.ts sweep).
CREATE INDEX search_sessions_by_start ON search_sessions (started_at);
CREATE INDEX search_clicks_by_time ON search_clicks (clicked_at);

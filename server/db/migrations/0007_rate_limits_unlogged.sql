-- Rate-limit counts are the hottest writes on PostgreSQL (one per API write) and the least
-- precious: unlogged, their commits skip the write-ahead log's flush. After a crash PostgreSQL
-- empties the table, so every window starts afresh, as the embedded server's in-memory windows
-- already do after a restart (docs/decisions/025-what-an-instance-keeps-in-memory.md).
ALTER TABLE "rate_limits" SET UNLOGGED;

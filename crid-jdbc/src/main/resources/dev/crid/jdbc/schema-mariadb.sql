-- crid registry table for MariaDB.
-- next_seq is the next unreserved sequence number of second ts (seconds since the crid epoch).
-- The same table serves Go and Java crid nodes. Rename the table here and in the registry's tableName together.
-- Allocations must survive a crash: keep innodb_flush_log_at_trx_commit=1 (the default).
CREATE TABLE IF NOT EXISTS crid_allocations (
	ts BIGINT NOT NULL PRIMARY KEY,
	next_seq BIGINT NOT NULL
) ENGINE=InnoDB;

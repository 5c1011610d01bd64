-- crid registry table for H2.
-- next_seq is the next unreserved sequence number of second ts (seconds since the crid epoch).
-- The same table serves Go and Java crid nodes. Rename the table here and in the registry's tableName together.
CREATE TABLE IF NOT EXISTS crid_allocations (
	ts BIGINT PRIMARY KEY,
	next_seq BIGINT NOT NULL
);

-- crid registry table in plain SQL, for databases crid has no dialect for.
-- next_seq is the next unreserved sequence number of second ts (seconds since the crid epoch).
-- The same table serves Go and Java crid nodes. Rename the table here and in the registry's tableName together.
CREATE TABLE crid_allocations (
	ts BIGINT NOT NULL PRIMARY KEY,
	next_seq BIGINT NOT NULL
);

-- crid registry table in plain SQL, for databases crid has no dialect for.
-- next_seq is the next unreserved sequence number of second ts (seconds since the crid epoch).
-- The same table serves Go and Java crid nodes. Rename the tables here and in the registry's tableName together
-- (the second is always the first's name with _meta appended).
CREATE TABLE crid_allocations (
	ts BIGINT NOT NULL PRIMARY KEY,
	next_seq BIGINT NOT NULL
);

-- Beside it, what only crid for Java reads, where Go nodes never look: one row (id 1, added by the registry
-- itself) with the second below which rows were evicted (reservations for those seconds are refused) and
-- the layout (epoch and bit split) the table was first used with (nodes with another layout are refused).
CREATE TABLE crid_allocations_meta (
	id INT NOT NULL PRIMARY KEY,
	evicted_before BIGINT NOT NULL,
	epoch_seconds BIGINT,
	timestamp_bits INT,
	sequence_bits INT
);

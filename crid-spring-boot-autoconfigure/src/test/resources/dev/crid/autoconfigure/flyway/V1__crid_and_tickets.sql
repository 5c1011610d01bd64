CREATE TABLE migrated_ids (ts BIGINT PRIMARY KEY, next_seq BIGINT NOT NULL);
CREATE TABLE migrated_ids_meta (id INT PRIMARY KEY, evicted_before BIGINT NOT NULL, epoch_seconds BIGINT,
	timestamp_bits INT, sequence_bits INT);
CREATE TABLE ticket (id BIGINT PRIMARY KEY, name VARCHAR(100));

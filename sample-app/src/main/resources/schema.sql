-- The Spring Data JDBC aggregate's table (the JPA tables come from Hibernate). spring.sql.init runs this at
-- start-up: on the embedded database by default, and on PostgreSQL in the postgres profile.
CREATE TABLE IF NOT EXISTS shipment (
	id BIGINT PRIMARY KEY,
	order_id BIGINT NOT NULL,
	destination VARCHAR(200) NOT NULL
);

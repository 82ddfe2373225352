--  citus--8.0-13--8.1-1.sql

--  bump version to 8.1-1


--  citus--8.2-4--8.3-1

--  bump version to 8.3-1


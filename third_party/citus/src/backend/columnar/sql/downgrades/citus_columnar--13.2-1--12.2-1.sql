-- citus_columnar--13.2-1--12.2-1.sql

DROP FUNCTION IF EXISTS pg_catalog.columnar_finish_pg_upgrade();

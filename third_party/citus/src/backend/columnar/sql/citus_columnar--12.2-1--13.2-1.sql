-- citus_columnar--12.2-1--13.2-1.sql

#include "udfs/columnar_finish_pg_upgrade/13.2-1.sql"

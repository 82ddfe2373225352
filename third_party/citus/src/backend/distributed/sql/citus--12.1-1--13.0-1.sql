-- citus--12.1-1--13.0-1.sql

-- bump version to 13.0-1
#include "udfs/citus_prepare_pg_upgrade/13.0-1.sql"
#include "udfs/create_time_partitions/13.0-1.sql"

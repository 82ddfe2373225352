-- citus--13.0-1--12.1-1
-- this is an empty downgrade path since citus--12.1-1--13.0-1.sql is empty

#include "../udfs/create_time_partitions/10.2-1.sql"

-- citus--11.0-1--10.2-5
-- downgrade version to 10.2-5

#include "citus--11.0-1--10.2-4.sql"
#include "../udfs/citus_finish_pg_upgrade/10.2-5.sql"

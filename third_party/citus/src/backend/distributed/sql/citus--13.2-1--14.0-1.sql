-- citus--13.2-1--14.0-1
-- bump version to 14.0-1

#include "udfs/citus_prepare_pg_upgrade/14.0-1.sql"
#include "udfs/citus_finish_pg_upgrade/14.0-1.sql"

#include "udfs/worker_binary_partial_agg_ffunc/14.0-1.sql"
#include "udfs/coord_binary_combine_agg_sfunc/14.0-1.sql"
#include "udfs/coord_binary_combine_agg_ffunc/14.0-1.sql"
#include "udfs/worker_binary_partial_agg/14.0-1.sql"
#include "udfs/coord_binary_combine_agg/14.0-1.sql"

#include "udfs/fix_pre_citus14_colocation_group_collation_mismatches/14.0-1.sql"
#include "udfs/citus_finish_citus_upgrade/14.0-1.sql"

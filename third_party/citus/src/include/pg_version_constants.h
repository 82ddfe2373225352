/*-------------------------------------------------------------------------
 *
 * pg_version_constants.h
 *	   pg version related constants.
 *
 * Copyright (c) Citus Data, Inc.
 *
 *-------------------------------------------------------------------------
 */

#ifndef PG_VERSION_CONSTANTS
#define PG_VERSION_CONSTANTS

#define PG_VERSION_16 160000
#define PG_VERSION_17 170000
#define PG_VERSION_18 180000
#define PG_VERSION_19 190000

#endif   /* PG_VERSION_CONSTANTS */

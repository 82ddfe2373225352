/*-------------------------------------------------------------------------
 * time_constants.h
 *
 * Copyright (c) Citus Data, Inc.
 *
 *-------------------------------------------------------------------------
 */

#ifndef TIME_CONSTANTS_H
#define TIME_CONSTANTS_H

#define MS 1
#define MS_PER_SECOND MS * 1000
#define MS_PER_MINUTE MS_PER_SECOND * 60
#define MS_PER_HOUR MS_PER_MINUTE * 60
#define MS_PER_DAY MS_PER_HOUR * 24

#endif /* TIME_CONSTANTS_H */

/*-------------------------------------------------------------------------
 *
 * cencel_utils.h
 *	  Utilities related to query cancellation
 *
 * Copyright (c) Citus Data, Inc.
 *
 *-------------------------------------------------------------------------
 */

#ifndef CANCEL_UTILS_H
#define CANCEL_UTILS_H


extern bool IsHoldOffCancellationReceived(void);

#endif /* CANCEL_UTILS_H */

/*-------------------------------------------------------------------------
 *
 * columnar_customscan.h
 *
 * Forward declarations of functions to hookup the custom scan feature of
 * columnar.
 *
 * $Id$
 *
 *-------------------------------------------------------------------------
 */

#ifndef COLUMNAR_CUSTOMSCAN_H
#define COLUMNAR_CUSTOMSCAN_H

void columnar_customscan_init(void);


#endif /* COLUMNAR_CUSTOMSCAN_H */

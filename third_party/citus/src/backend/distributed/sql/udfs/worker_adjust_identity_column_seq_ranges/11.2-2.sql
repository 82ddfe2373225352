-- Since we backported the UDF below from version 11.3, the definition is the same
#include "11.3-1.sql"


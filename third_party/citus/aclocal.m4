dnl aclocal.m4
m4_include([config/general.m4])

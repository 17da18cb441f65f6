#!/usr/sbin/dtrace -Cqs
/*
 * The interpreter line never reaches cpp (DTrace's dt_preproc() starts it
 * at the newline ending that line), and the lines after it keep their
 * numbers: __LINE__ below is the line it is written on.
 */
#define	GREETING	"preprocessed"

BEGIN
{
	printf("%s %d\n", GREETING, __LINE__);
	exit(0);
}

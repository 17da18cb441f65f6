/*
 * Typedefs from a file the preprocessor included go to the C definitions,
 * DTrace's "C" container, and are checked against those alone: a header
 * may define int8_t and pid_t again, though D has them.
 */
#include "cpp_header_typedef_d_type.h"

BEGIN
{
	printf("%d %d\n", sizeof (int8_t), sizeof (hdr_pair_t));
	exit(0);
}

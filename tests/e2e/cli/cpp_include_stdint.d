/*
 * With -C a program may include the C library's <stdint.h> and
 * <inttypes.h>: the preprocessor is told the instruction set and data model
 * (as DTrace's cpp is), and the headers' typedefs of names D already has
 * (int8_t, uint64_t, ...) go to the C definitions, as in DTrace.
 */
#include <stdint.h>
#include <inttypes.h>

BEGIN
{
	printf("%d %d %d %d\n", sizeof (int64_t), sizeof (uint8_t), sizeof (int_least16_t), sizeof (uintmax_t));
	printf("%d %d %d\n", INT16_MAX, UINT8_MAX, (int64_t)INT64_MIN < 0);
	exit(0);
}

#include "greeting.h"

BEGIN
{
	printf("%s\n", GREETING);
	exit(0);
}

#define NOT_PREPROCESSED 1

BEGIN
{
	exit(0);
}

inline uint64_t started = timestamp;

BEGIN
{
	trace(started());
}

struct rec { int n; };
struct rec r;

BEGIN
{
	trace(r.self);
}

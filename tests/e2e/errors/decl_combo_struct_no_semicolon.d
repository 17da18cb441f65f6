/* the ";" after the first definition is missing */
struct point {
	int x, y;
}

struct size
{
	int w, h;
};

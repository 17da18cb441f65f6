/* translated data goes only to a variable of the translator's output type */
struct raw {
	int r_val;
};
struct cooked {
	int c_val;
};
translator struct cooked < struct raw *rp > {
	c_val = rp->r_val;
};
struct raw *src;
struct raw copy;
BEGIN
{
	copy = xlate<struct cooked>(src);
}

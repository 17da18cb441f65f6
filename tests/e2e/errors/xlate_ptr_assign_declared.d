/* not even to a variable declared with the translator's output pointer type */
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
struct cooked *dst;
BEGIN
{
	dst = xlate<struct cooked *>(src);
}

/* Translators: xlate<T *>(e)->member and xlate<T>(e).member evaluate the
   translator's definition of that member with its parameter bound to e
   (evaluated once), converted to the member's type. */
#pragma D option quiet

struct in_s { int a; int b; char *name; };
typedef struct out_s { int sum; long prod; string label; int neg:4; } out_t;

translator out_t < struct in_s *p > {
	sum = p->a + p->b;
	prod = (long)p->a * p->b;
	label = stringof(p->name);
	neg = -p->a;
};

BEGIN
{
	this->p = (struct in_s *)alloca(sizeof(struct in_s));
	this->p->a = 3;
	this->p->b = 4;
	this->p->name = "three";
	printf("%d %d %s %d\n", xlate<out_t *>(this->p)->sum, xlate<out_t>(this->p).prod,
	    xlate<out_t *>(this->p)->label, xlate<out_t>(this->p).neg);
	/* the input is evaluated once per translation */
	this->i = 0;
	printf("%d %d\n", xlate<out_t *>(this->p + this->i++)->sum, this->i);
	exit(0);
}

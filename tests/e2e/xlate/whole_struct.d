/* *xlate<T *>(e) is the whole translated struct (members the translator
   does not define are zero), printable with print() and assignable to a
   variable; xlate<T>(e) is the same struct. */
#pragma D option quiet

struct stack { long sec; long nsec; };

typedef struct pancakes {
	int i;
	string s;
	struct stack t;
	int undefined;
} pancakes_t;

translator pancakes_t < void *V > {
	i = 2 * 10;
	s = strjoin("I like ", "pancakes");
	t = *(struct stack *)V;
};

BEGIN
{
	this->ts = (struct stack *)alloca(sizeof(struct stack));
	this->ts->sec = 5;
	this->ts->nsec = 6;
	print(*(xlate<pancakes_t *>((void *)this->ts)));
	printf("\n");
	copy = xlate<pancakes_t>((void *)this->ts);
	printf("%d %s %d %d\n", copy.i, copy.s, copy.t.sec, copy.t.nsec);
	exit(0);
}

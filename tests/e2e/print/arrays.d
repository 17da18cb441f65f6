/* print() of arrays: scalars inline between "[ " and " ]", structs one per
   block with the array's nesting added to their indentation, char arrays
   as strings when they hold printable text up to a NUL, and as quoted
   chars when they do not. */
#pragma D option quiet

struct pair { int k; int v; };
struct holder {
	int id;
	struct pair pairs[2];
	int grid[2][3];
	char tag[4];
	char raw[3];
	char empty[2];
};

BEGIN
{
	this->h = (struct holder *)alloca(sizeof(struct holder));
	this->h->id = 1;
	this->h->pairs[0].k = 10;
	this->h->pairs[0].v = 11;
	this->h->pairs[1].k = 20;
	this->h->pairs[1].v = 21;
	this->h->grid[0][1] = 1;
	this->h->grid[1][2] = 12;
	this->h->tag[0] = 'a';
	this->h->tag[1] = 'b';
	this->h->raw[0] = 'x';
	this->h->raw[1] = 'y';
	this->h->raw[2] = 'z';
	print(*this->h);
	printf("\n");
	print(this->h->pairs);
	printf("\n");
	print(this->h->grid[1]);
	printf("\n");
	print(this->h->tag);
	printf("\n");
	print(this->h->raw);
	printf("\n");
	exit(0);
}

/* a bit-field must have an integer type: an enum (even through a typedef) is not one to DTrace */
enum level { LOW, HIGH };
typedef enum level level_t;

struct flags {
	int ok : 1;
	level_t lvl : 2;
};

BEGIN
{
	exit(0);
}

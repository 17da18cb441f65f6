/*
 * A struct tag waits for the token after it, so the typedef name that
 * follows is still read as a type and taken for the declared name (DTrace's
 * dt_decl_spec()); the name after it is then one name too many.
 */
struct s {
	int a;
};
typedef int t;
struct s t x;

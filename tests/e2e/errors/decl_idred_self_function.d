/* a thread-local of function type has the type "int ()" */
self int f(int);
self int f;

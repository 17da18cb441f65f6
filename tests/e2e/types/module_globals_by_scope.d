/* module`symbol: globals of a loaded object read at their address in the
   dtrace process, typed from the object's types: CTF (libct_ctf.so) and
   DWARF 5 (libct_dwarf5.so), both preloaded by types.cmake, each with its
   own copy of types.c's initialised globals. */
#pragma D option quiet

BEGIN
{
	printf("ctf int %d points[2] %d,%d\n", libct_ctf.so`ct_global_int,
	    libct_ctf.so`ct_points[2].x, libct_ctf.so`ct_points[2].y);
	printf("ctf node %s %d %d %x\n", stringof(libct_ctf.so`ct_global_node.name),
	    libct_ctf.so`ct_global_node.arr[1], libct_ctf.so`ct_global_node.bits.c,
	    libct_ctf.so`ct_global_node.big);
	printf("dwarf int %d points[1] %d,%d\n", libct_dwarf5.so`ct_global_int,
	    libct_dwarf5.so`ct_points[1].x, libct_dwarf5.so`ct_points[1].y);
	printf("dwarf node %s %d %d %d\n", stringof(libct_dwarf5.so`ct_global_node.label),
	    (int)libct_dwarf5.so`ct_global_node.bits.f, libct_dwarf5.so`ct_global_node.bits.d,
	    libct_dwarf5.so`ct_global_node.uc);
	this->p = (struct libct_dwarf5.so`ct_point *)&libct_dwarf5.so`ct_points[2];
	printf("through a scoped pointer %d\n", this->p->y);
	print(libct_dwarf5.so`ct_global_node.bits);
	printf("\n");
	exit(0);
}

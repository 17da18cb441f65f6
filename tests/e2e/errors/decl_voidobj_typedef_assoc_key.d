/* "cannot declare array of void" is for the type named void; a typedef of void gets the object check */
typedef void v;
v a[int];

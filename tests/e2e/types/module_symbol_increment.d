/* nor may ++ change one, named by the mark alone */
BEGIN
{
	`ct_global_int++;
}

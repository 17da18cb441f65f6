END
{
	trunc(@late[1], 5);
}

BEGIN
{
}

int f(char c, int tbl[string]);

struct s { int a; };

BEGIN
{
	this->p = (struct s *)0;
	y = this->p.a;
}

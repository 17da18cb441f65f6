dtrace:::END
{
}

dtrace:::BEGIN
{
}

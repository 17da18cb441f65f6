BEGIN
{
}

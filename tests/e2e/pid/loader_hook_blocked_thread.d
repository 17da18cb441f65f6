profile-1s
{
}

/* -x setenv and unsetenv make the environment of the -c command. */
BEGIN
{
}

/* the environment of the -c command is the test's; this program only waits for it */
BEGIN
{
}

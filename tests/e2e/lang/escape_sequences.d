/*
 * Escapes in character constants and string literals are DTrace's
 * (stresc2chr): \a \b \f \n \r \t \v, \" and \\, one to three octal digits,
 * \x with all the hex digits that follow (kept to a char).  Any other
 * escaped character keeps its backslash: '\?' and '\'' are two-character
 * constants and "\q" is two characters.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", '\?', '\'', '\k', '\\');
	printf("%d %d %d\n", '\"', '\0101', '\x4142');
	printf("[%s]\n", "w\?x\'y\qz\"");
	printf("[%s]\n", "\x414243|\0612");
	printf("tab\there\?\n");
	exit(0);
}

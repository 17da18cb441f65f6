/* the value is checked once the token after it is read: the line of "}" */
enum sizes {
	HUGE = 0x80000000

};

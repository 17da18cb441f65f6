#!/usr/bin/env -S dtrace -qs

BEGIN
{
	exit(3);
}

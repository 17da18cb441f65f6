#!/usr/bin/env -S dtrace -s

BEGIN
{
	exit(0);
}

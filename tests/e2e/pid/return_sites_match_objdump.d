pid$target:a.out:twoexits:entry
{
	self->x = arg0;
}

pid$target:a.out:twoexits:return
{
	printf("%d %d %x\n", self->x, (int)arg1, arg0);
}

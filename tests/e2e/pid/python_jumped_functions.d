pid$target:python3.11:PyObject_*:entry
{
	n++;
}

END
{
	printf("%s\n", n > 20000 ? "PyObject_* calls seen" : "too few PyObject_* calls");
}

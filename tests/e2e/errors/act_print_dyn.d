struct input {
	int value;
};

struct output {
	int doubled;
};

translator struct output < struct input *in > {
	doubled = in->value * 2;
};

BEGIN
{
	print(xlate<struct output *>((struct input *)alloca(sizeof (struct input))));
}

pid$target:python3.11:PyEval_EvalCode:entry
{
	@calls["PyEval_EvalCode"] = count();
}

profile-997
/pid == $target/
{
	@stacks[ustack()] = count();
}

END
{
	printa("%s %@d\n", @calls);
	printa(@stacks);
}

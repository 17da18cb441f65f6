usdtprog$target:::guarded
{
	@ = count();
}

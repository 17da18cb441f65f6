/* args[] of SystemTap probes are typed by each descriptor's size and sign. */
usdtprog$target:::regs,
usdtprog$target:::stack
{
}

usdtg$target:::done,
usdtg$target:::state,
usdtg$target:::many
{
}

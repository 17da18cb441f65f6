pid$target:a.out:add:
{
}

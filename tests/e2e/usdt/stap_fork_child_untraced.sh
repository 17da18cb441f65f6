# A forked child runs untraced: its copy of the semaphore is taken back to
# 0 and its copy of the probe's text mended, so firing the site there
# neither traps nor counts; the parent's probe fires before and after.
"$1" -qs stap_fork_child_untraced.d -c "$DT_USDT_TARGETS/usdtprog fork"

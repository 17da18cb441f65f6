# Untraced, the semaphore is 0 and the guarded work never runs; traced, it
# runs on every one of 1000 rounds and each fires the probe.
P=$DT_USDT_TARGETS/usdtprog
"$P" count 1000
"$1" -qs stap_semaphore_while_enabled.d -c "$P count 1000"

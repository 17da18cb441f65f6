# profile-997 fires in the target's own thread while it spins (a sample in
# spin() itself or in the libc function it calls, see the .d).
"$1" -qs profile_samples_target.d -c "$DT_PID_TARGETS/pidtarget_fp spin 10000" |
	grep -c 'pidtarget_fp`spin' | sed 's/^[1-9][0-9]*$/spin sampled/'

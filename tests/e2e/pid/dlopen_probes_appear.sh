# libpiddl.so is not loaded when the script is compiled (-Z); its probe
# appears when the program loads it, and again after dlclose and dlopen.
"$1" -Zqs dlopen_probes_appear.d -c "$DT_PID_TARGETS/piddlopen $DT_PID_TARGETS/libpiddl.so"

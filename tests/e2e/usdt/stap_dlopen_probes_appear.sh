# libusdtdl.so is not loaded when the script is compiled (-Z): its
# provider and probes appear when the program loads it, go when it is
# unloaded, and come back with it; its semaphore (in the library's data)
# is raised each time, so the guarded work runs on every call.
"$1" -Zqs stap_dlopen_probes_appear.d -c "$DT_USDT_TARGETS/usdtdlopen $DT_USDT_TARGETS/libusdtdl.so"

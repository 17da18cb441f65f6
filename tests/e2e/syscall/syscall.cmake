# tests/e2e/syscall: the syscall provider in traced processes (seccomp
# filters and the agent's SIGSYS handler): ls -l / against strace, a
# program of the tree's (targets/) for arguments, results, errno, signal
# masks, fork, threads and exec, and -p runs that outlive dtrace.  Each
# test is a .sh finding the target through DT_SYSCALL_TARGETS.  Included
# from ../CMakeLists.txt; Linux hosts only (the agent).
if(TARGET dtrace_cmd AND TARGET dtrace_agent)
	add_executable(syscallprog ${CMAKE_CURRENT_LIST_DIR}/targets/syscallprog.c)
	target_link_libraries(syscallprog PRIVATE pthread)
	e2e_group(syscall ON syscallprog)
elseif(TARGET dtrace_cmd)
	e2e_group(syscall OFF)
endif()

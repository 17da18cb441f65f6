# tests/e2e/syscall: the syscall provider in traced processes (seccomp
# filters and the agent's SIGSYS handler): ls -l / against strace, a
# program of the tree's (targets/) for arguments, results, errno, signal
# masks, fork, threads and exec, and -p runs that outlive dtrace.  Each
# test is a .sh finding the target through DT_SYSCALL_TARGETS.  Included
# from ../CMakeLists.txt; Linux hosts only (the agent).
if(TARGET dtrace_cmd AND TARGET dtrace_agent)
	add_executable(syscallprog ${CMAKE_CURRENT_LIST_DIR}/targets/syscallprog.c)
	target_link_libraries(syscallprog PRIVATE pthread)
	set_target_properties(syscallprog PROPERTIES
		RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests/e2e/syscall)
	file(GLOB _syscall_tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.d)
	foreach(script ${_syscall_tests})
		get_filename_component(name ${script} NAME_WE)
		set_tests_properties(e2e_syscall_${name} PROPERTIES
			ENVIRONMENT "DT_SYSCALL_TARGETS=${CMAKE_BINARY_DIR}/tests/e2e/syscall"
			LABELS "e2e;syscall")
	endforeach()
elseif(TARGET dtrace_cmd)
	file(GLOB _syscall_tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.d)
	foreach(script ${_syscall_tests})
		get_filename_component(name ${script} NAME_WE)
		set_tests_properties(e2e_syscall_${name} PROPERTIES DISABLED TRUE)
	endforeach()
endif()

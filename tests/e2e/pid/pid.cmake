# tests/e2e/pid: the pid provider against small programs the tree builds
# (targets/): with and without frame pointers, threaded, forking, loading
# a library.  Each test is a .sh that runs dtrace with -c or -p on one of
# them, found through DT_PID_TARGETS.  Included from ../CMakeLists.txt
# after its tests are defined; Linux hosts only (the agent).
if(TARGET dtrace_cmd AND TARGET dtrace_agent)
	set(_pt ${CMAKE_CURRENT_LIST_DIR}/targets)
	add_executable(pidtarget_fp ${_pt}/pidtarget.c)
	target_compile_options(pidtarget_fp PRIVATE -O2 -fno-omit-frame-pointer)
	add_executable(pidtarget_nofp ${_pt}/pidtarget.c)
	target_compile_options(pidtarget_nofp PRIVATE -O2 -fomit-frame-pointer
		-fasynchronous-unwind-tables)
	add_executable(pidtarget_static ${_pt}/pidtarget.c)
	if(DEFINED DTRACE_STATIC_LINK_HEAD)
		# the toolchain's own way to link a static program (riscv64-linux-gnu.cmake)
		target_link_options(pidtarget_static PRIVATE ${DTRACE_STATIC_LINK_HEAD})
		target_link_libraries(pidtarget_static PRIVATE ${DTRACE_STATIC_LINK_TAIL})
	else()
		target_link_options(pidtarget_static PRIVATE -static)
	endif()
	add_executable(pidthreads ${_pt}/pidthreads.c)
	target_link_libraries(pidthreads PRIVATE pthread)
	add_executable(pidfork ${_pt}/pidfork.c)
	add_executable(pidloop ${_pt}/pidloop.c)
	add_executable(pidsignals ${_pt}/pidsignals.c)
	target_link_libraries(pidsignals PRIVATE pthread ${CMAKE_DL_LIBS})
	add_executable(pidhostile ${_pt}/pidhostile.c)
	add_executable(pidjump ${_pt}/pidjump.c)
	target_link_libraries(pidjump PRIVATE pthread)
	add_library(piddl SHARED ${_pt}/piddl.c)
	add_executable(piddlopen ${_pt}/piddlopen.c)
	target_link_libraries(piddlopen PRIVATE ${CMAKE_DL_LIBS})
	e2e_group(pid ON pidtarget_fp pidtarget_nofp pidtarget_static pidthreads pidfork pidloop
		pidsignals pidhostile piddl piddlopen pidjump)
elseif(TARGET dtrace_cmd)
	e2e_group(pid OFF)
endif()

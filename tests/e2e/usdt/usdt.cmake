# tests/e2e/usdt: statically defined probes (USDT) of traced processes:
# SystemTap notes in programs the tree builds (targets/) and in real ones
# (python3.11, PostgreSQL 15 when installed).  Each test is a .sh that runs
# dtrace with -c or -p, finding the targets through DT_USDT_TARGETS.
# Included from ../CMakeLists.txt after its tests are defined; Linux hosts
# only (the agent).
# The targets are built with <sys/sdt.h> (systemtap-sdt-dev; for another
# ISA, cmake/cross-sysroot.sh unpacks the target's).
find_path(DT_SDT_INCLUDE_DIR sys/sdt.h)
if(TARGET dtrace_cmd AND TARGET dtrace_agent AND NOT DT_SDT_INCLUDE_DIR)
	message(STATUS "tests/e2e/usdt: no <sys/sdt.h> for ${DTRACE_ISA} (systemtap-sdt-dev): "
		"its tests are disabled")
endif()
if(TARGET dtrace_cmd AND TARGET dtrace_agent AND DT_SDT_INCLUDE_DIR)
	set(_ut ${CMAKE_CURRENT_LIST_DIR}/targets)
	add_executable(usdtprog ${_ut}/usdtprog.c ${_ut}/usdtsem.c)
	target_compile_options(usdtprog PRIVATE -O2)
	add_library(usdtdl SHARED ${_ut}/usdtdl.c)
	add_executable(usdtdlopen ${_ut}/usdtdlopen.c)
	target_include_directories(usdtprog PRIVATE ${DT_SDT_INCLUDE_DIR})
	target_include_directories(usdtdl PRIVATE ${DT_SDT_INCLUDE_DIR})
	target_link_libraries(usdtdlopen PRIVATE ${CMAKE_DL_LIBS})
	e2e_group(usdt ON usdtprog usdtdl usdtdlopen)
elseif(TARGET dtrace_cmd)
	e2e_group(usdt OFF)
endif()

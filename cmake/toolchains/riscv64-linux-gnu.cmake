# Cross build for Linux on riscv (riscv64-linux-gnu), run under qemu-user.
#   cmake --preset riscv && cmake --build --preset riscv && ctest --preset riscv
# The compiler is Debian 12's gcc-riscv64-linux-gnu.  Debian 12 packages no
# riscv64 libelf, libctf or libdwarf; cmake/cross-sysroot.sh riscv (run by
# bootstrap.sh) takes them from Debian 13 (trixie) into DTRACE_CROSS_SYSROOT
# together with trixie's C library, which trixie's libelf needs (glibc
# 2.38 or newer; bookworm's cross libc is 2.36).  So when that sysroot
# holds a C library, everything compiles and links against it alone
# (--sysroot, its headers before the cross libc's, its crt files and
# libraries first) and tests run their programs through qemu-riscv64 with
# it as the guest's library root; programs the tests start by path
# (dtrace -c ./target) reach qemu through binfmt_misc, whose prefix
# cmake/cross-binfmt.sh points at the same directory.
# Without it (trixie unreachable) the Linux host is left out
# (DTRACE_LINUX_HOST OFF: core, ISA module, engine and their tests only),
# against bookworm's cross libc in /usr/riscv64-linux-gnu.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(CMAKE_C_COMPILER riscv64-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER riscv64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE riscv64-linux-gnu)
# dtrace -C preprocesses with the target's cpp (its headers)
set(DTRACE_CPP riscv64-linux-gnu-cpp CACHE STRING "C preprocessor the dtrace command runs for -C")

set(DTRACE_CROSS_SYSROOT "/opt/dtrace-cross/riscv" CACHE PATH
	"Debian 13 riscv64 libelf, libctf, libdwarf and C library (cmake/cross-sysroot.sh riscv)")
set(_dt_sys "${DTRACE_CROSS_SYSROOT}")
set(_dt_libdir "${_dt_sys}/usr/lib/riscv64-linux-gnu")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

if(EXISTS "${_dt_libdir}/libc.so.6" AND EXISTS "${_dt_libdir}/libelf.so")
	set(CMAKE_SYSROOT "${_dt_sys}")
	set(CMAKE_FIND_ROOT_PATH "${_dt_sys}")
	# gcc's own include directory for the target (/usr/riscv64-linux-gnu/include,
	# bookworm's glibc 2.36 headers) is searched whatever --sysroot says:
	# the sysroot's headers go first.
	set(CMAKE_C_FLAGS_INIT "-isystem ${_dt_sys}/usr/include/riscv64-linux-gnu -isystem ${_dt_sys}/usr/include")
	set(CMAKE_ASM_FLAGS_INIT "${CMAKE_C_FLAGS_INIT}")
	# and its crt files and libraries before the cross libc's
	set(_dt_link "-B${_dt_libdir}/ -L${_dt_libdir} -Wl,-rpath-link,${_dt_libdir}")
	set(CMAKE_EXE_LINKER_FLAGS_INIT "${_dt_link}")
	set(CMAKE_SHARED_LINKER_FLAGS_INIT "${_dt_link}")
	set(CMAKE_MODULE_LINKER_FLAGS_INIT "${_dt_link}")
	set(CMAKE_CROSSCOMPILING_EMULATOR qemu-riscv64 -L "${_dt_sys}")
	# A static program cannot link trixie's libc.a: it carries relocations
	# (R_RISCV_SET_ULEB128, SUB_ULEB128) newer than bookworm's cross ld 2.40,
	# which crashes on them.  Static programs (tests/e2e/pid/pid.cmake) link
	# bookworm's cross libc.a and crt files instead: DTRACE_STATIC_LINK_HEAD
	# goes before their objects, DTRACE_STATIC_LINK_TAIL after.
	set(_dt_old /usr/riscv64-linux-gnu/lib)
	execute_process(COMMAND riscv64-linux-gnu-gcc -print-file-name=crtbeginT.o
		OUTPUT_VARIABLE _dt_gcc OUTPUT_STRIP_TRAILING_WHITESPACE)
	get_filename_component(_dt_gcc "${_dt_gcc}" DIRECTORY)
	set(DTRACE_STATIC_LINK_HEAD -static -nostartfiles -nodefaultlibs
		${_dt_old}/crt1.o ${_dt_old}/crti.o ${_dt_gcc}/crtbeginT.o)
	set(DTRACE_STATIC_LINK_TAIL -Wl,--start-group ${_dt_old}/libc.a -lgcc -lgcc_eh -Wl,--end-group
		${_dt_gcc}/crtend.o ${_dt_old}/crtn.o)
	if(_DTRACE_RISCV_HOST_FORCED_OFF)
		set(DTRACE_LINUX_HOST ON CACHE BOOL "Build port/linux, libdtrace and the dtrace command on Linux" FORCE)
		unset(_DTRACE_RISCV_HOST_FORCED_OFF CACHE)
	endif()
else()
	set(CMAKE_FIND_ROOT_PATH "${_dt_sys}" /usr/riscv64-linux-gnu)
	set(CMAKE_CROSSCOMPILING_EMULATOR qemu-riscv64 -L /usr/riscv64-linux-gnu)
	if(NOT _DTRACE_RISCV_HOST_FORCED_OFF)
		message(STATUS "riscv: no C library and libelf in ${_dt_sys} (cmake/cross-sysroot.sh riscv): "
			"port/linux, libdtrace and dtrace are left out")
	endif()
	set(DTRACE_LINUX_HOST OFF CACHE BOOL "Build port/linux, libdtrace and the dtrace command on Linux" FORCE)
	set(_DTRACE_RISCV_HOST_FORCED_OFF ON CACHE INTERNAL "")
endif()

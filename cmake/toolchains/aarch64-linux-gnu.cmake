# Cross build for Linux on aarch64 (aarch64-linux-gnu), run under qemu-user.
#   cmake --preset aarch64 && cmake --build --preset aarch64 && ctest --preset aarch64
# The compilers are Debian's gcc-aarch64-linux-gnu (libc6-dev-*-cross); libelf, libctf,
# libdwarf (and what they link) for the target come from DTRACE_CROSS_SYSROOT, made by
# cmake/cross-sysroot.sh (bootstrap.sh runs it).  Tests run their programs
# through qemu-aarch64 with that directory as the guest's library root, and
# programs the tests start by path (dtrace -c ./target) reach qemu through
# binfmt_misc, whose prefix bootstrap.sh points at the same directory.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# dtrace -C preprocesses with the target's cpp (its headers)
set(DTRACE_CPP aarch64-linux-gnu-cpp CACHE STRING "C preprocessor the dtrace command runs for -C")

set(DTRACE_CROSS_SYSROOT "/opt/dtrace-cross/aarch64" CACHE PATH
	"libelf, libctf, libdwarf and links to the cross libc for aarch64-linux-gnu (cmake/cross-sysroot.sh)")
set(CMAKE_FIND_ROOT_PATH "${DTRACE_CROSS_SYSROOT}" /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Their own dependencies (libz, libzstd, libbfd): let the linker find them.
set(_dt_cross_libs "${DTRACE_CROSS_SYSROOT}/usr/lib/aarch64-linux-gnu:${DTRACE_CROSS_SYSROOT}/lib/aarch64-linux-gnu")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,-rpath-link,${_dt_cross_libs}")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-Wl,-rpath-link,${_dt_cross_libs}")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-Wl,-rpath-link,${_dt_cross_libs}")

set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L "${DTRACE_CROSS_SYSROOT}")

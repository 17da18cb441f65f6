# Cross build for Linux on riscv (riscv64-linux-gnu), run under qemu-user.
#   cmake --preset riscv && cmake --build --preset riscv && ctest --preset riscv
# The compilers are Debian's gcc-riscv64-linux-gnu (libc6-dev-*-cross); libelf, libctf,
# libdwarf (and what they link) for the target come from DTRACE_CROSS_SYSROOT, made by
# cmake/cross-sysroot.sh (bootstrap.sh runs it).  Tests run their programs
# through qemu-riscv64 with that directory as the guest's library root, and
# programs the tests start by path (dtrace -c ./target) reach qemu through
# binfmt_misc, whose prefix bootstrap.sh points at the same directory.
# Without that directory (Debian 12 has no riscv64 libelf) configure with
# -DDTRACE_LINUX_HOST=OFF, as the riscv preset does.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(CMAKE_C_COMPILER riscv64-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER riscv64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE riscv64-linux-gnu)
# dtrace -C preprocesses with the target's cpp (its headers)
set(DTRACE_CPP riscv64-linux-gnu-cpp CACHE STRING "C preprocessor the dtrace command runs for -C")

set(DTRACE_CROSS_SYSROOT "/opt/dtrace-cross/riscv" CACHE PATH
	"libelf, libctf, libdwarf and links to the cross libc for riscv64-linux-gnu (cmake/cross-sysroot.sh)")
set(CMAKE_FIND_ROOT_PATH "${DTRACE_CROSS_SYSROOT}" /usr/riscv64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Their own dependencies (libz, libzstd, libbfd): let the linker find them.
set(_dt_cross_libs "${DTRACE_CROSS_SYSROOT}/usr/lib/riscv64-linux-gnu:${DTRACE_CROSS_SYSROOT}/lib/riscv64-linux-gnu")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,-rpath-link,${_dt_cross_libs}")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "-Wl,-rpath-link,${_dt_cross_libs}")
set(CMAKE_MODULE_LINKER_FLAGS_INIT "-Wl,-rpath-link,${_dt_cross_libs}")

# Debian 12 packages no riscv64 libelf, libctf or libdwarf, so the sysroot
# may hold xxhash.h alone (the riscv preset then builds without the Linux
# host): the cross C library alone is the guest's root.
if(EXISTS "${DTRACE_CROSS_SYSROOT}/lib")
	set(CMAKE_CROSSCOMPILING_EMULATOR qemu-riscv64 -L "${DTRACE_CROSS_SYSROOT}")
else()
	set(CMAKE_CROSSCOMPILING_EMULATOR qemu-riscv64 -L /usr/riscv64-linux-gnu)
endif()

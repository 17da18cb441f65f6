# The consumer half of libdtrace: the library `dtrace` (libdtrace.h).
#
# The formatting and bookkeeping sources need nothing but libc, libelf and
# xxhash, so they always build (tests format synthetic records with them).
# Programs need the compiler (dt_compiler, from compiler.cmake); reaching a
# core needs this OS's backend, dt_backend_<os>.c, which CMake picks here:
# no C file asks which OS it is on.  A kernel port adds its ioctl backend
# file and the condition that selects it.
find_path(DT_XXHASH_INCLUDE xxhash.h REQUIRED)

add_library(dtrace STATIC
	dt_aggregate.c
	dt_consume.c
	dt_desc.c
	dt_error.c
	dt_handle.c
	dt_options.c
	dt_print.c
	dt_print_typed.c
	dt_printf.c
	dt_probes.c
	dt_proc.c
	dt_status.c
	dt_symtab.c
	dt_work.c)
target_include_directories(dtrace PUBLIC ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/core)
target_include_directories(dtrace SYSTEM PRIVATE ${DT_XXHASH_INCLUDE})
target_link_libraries(dtrace PUBLIC dt_elf)
target_compile_options(dtrace PRIVATE -Wshadow -Wmissing-prototypes)
# The system's D library directory (-x syslibdir changes it at run time).
set(DTRACE_SYSLIBDIR "/usr/lib/dtrace" CACHE PATH "D library directory read before every compile")
target_compile_definitions(dtrace PRIVATE DT_SYSLIBDIR="${DTRACE_SYSLIBDIR}")

if(TARGET dt_compiler)
	target_sources(dtrace PRIVATE dt_program.c dt_link.c)
	target_link_libraries(dtrace PUBLIC dt_compiler)
endif()

# The backend: on Linux the core runs in this process, hosted by port/linux.
set(DT_BACKEND_SOURCE "")
if(DTRACE_OS STREQUAL "linux" AND TARGET dtrace_port AND TARGET dtrace_linux_host)
	set(DT_BACKEND_SOURCE dt_backend_linux.c)
	target_link_libraries(dtrace PUBLIC dtrace_linux_host)
endif()

# A second backend, chosen at run time with DTRACE_BACKEND=rump: a NetBSD
# kernel in this process (port/netbsd/rump), reached through its ioctls.
if(DT_BACKEND_SOURCE AND TARGET dtrace_rump_host)
	list(APPEND DT_BACKEND_SOURCE dt_backend_rump.c)
	target_link_libraries(dtrace PUBLIC dtrace_rump_host)
	# dt_open.c refers to it weakly (absent in builds without it), which
	# takes nothing from an archive: ask the linker for it by name.
	target_link_options(dtrace INTERFACE -Wl,--undefined=dt_backend_rump)
	set_source_files_properties(dt_backend_rump.c PROPERTIES COMPILE_DEFINITIONS
		"DT_RUMP_LIBDIR=\"${DTRACE_RUMP_LIBDIR}\";DT_RUMP_COMPONENT=\"${DTRACE_RUMP_COMPONENT}\"")
endif()

# dtrace_open() needs both a backend and the compiler.
if(DT_BACKEND_SOURCE AND TARGET dt_compiler)
	target_sources(dtrace PRIVATE dt_open.c ${DT_BACKEND_SOURCE})
	set(DT_HAVE_CONSUMER ON CACHE INTERNAL "libdtrace can open a core")
else()
	set(DT_HAVE_CONSUMER OFF CACHE INTERNAL "libdtrace can open a core")
endif()

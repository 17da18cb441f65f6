# Module types (userland/libdtrace/dt_modtypes.h): types.c built into shared
# objects whose types are CTF only (gcc -gctf), DWARF 5 only (gcc -g),
# DWARF 4 only (gcc -gdwarf-4) or absent (gcc -g0), always with gcc and fixed flags so the
# build type cannot add or drop debug information; the tests load one
# object each and read its types back.  Included from ../CMakeLists.txt.
set(_ct ${CMAKE_CURRENT_LIST_DIR})
set(_cb ${CMAKE_CURRENT_BINARY_DIR}/ctf)
# the target's gcc: <triple>-gcc (the same gcc natively, the cross one in
# a cross build)
find_program(DT_TEST_GCC NAMES ${CMAKE_LIBRARY_ARCHITECTURE}-gcc gcc)
if(TARGET dt_compiler AND DT_TEST_GCC)
	file(MAKE_DIRECTORY ${_cb})
	execute_process(COMMAND ${DT_TEST_GCC} -gctf -c -x c /dev/null -o ${_cb}/probe.o
		RESULT_VARIABLE _ctf_rc OUTPUT_QUIET ERROR_QUIET)
	set(_variants dwarf5 dwarf4 notypes)
	set(_flags_notypes -g0)
	set(_flags_dwarf5 -g -gdwarf-5)
	set(_flags_dwarf4 -g -gdwarf-4)
	if(_ctf_rc EQUAL 0)
		list(APPEND _variants ctf)
		set(_flags_ctf -gctf)
	else()
		message(STATUS "module type tests: CTF skipped: ${DT_TEST_GCC} does not accept -gctf (gcc 12 or later does)")
	endif()
	set(_objs)
	foreach(v ${_variants})
		add_custom_command(OUTPUT ${_cb}/libct_${v}.so
			COMMAND ${DT_TEST_GCC} ${_flags_${v}} -O0 -shared -fPIC -o ${_cb}/libct_${v}.so ${_ct}/types.c
			DEPENDS ${_ct}/types.c ${_ct}/types.h VERBATIM)
		list(APPEND _objs ${_cb}/libct_${v}.so)
	endforeach()
	if(_ctf_rc EQUAL 0)
		# A program (PIE, as gcc builds them here) for the $target tests.
		# ld (2.40) gives CTF variable types only to dynamic symbols, so a
		# program's globals need -Wl,-E to be typed from its CTF.
		add_custom_command(OUTPUT ${_cb}/ct_target
			COMMAND ${DT_TEST_GCC} -gctf -O0 -Wl,-E -o ${_cb}/ct_target ${_ct}/target.c ${_ct}/types.c
			DEPENDS ${_ct}/target.c ${_ct}/types.c ${_ct}/types.h VERBATIM)
		list(APPEND _objs ${_cb}/ct_target)
	endif()
	add_custom_target(ct_type_objects ALL DEPENDS ${_objs})
	# for tests/e2e/types
	set(DT_CT_OBJDIR ${_cb} CACHE INTERNAL "")
	if(_ctf_rc EQUAL 0)
		set(DT_CT_HAVE_CTF TRUE CACHE INTERNAL "")
	endif()

	add_executable(userland_modtypes_test ${_ct}/modtypes_test.c)
	target_include_directories(userland_modtypes_test PRIVATE ${_ct})
	target_link_libraries(userland_modtypes_test PRIVATE dt_compiler ${CMAKE_DL_LIBS})
	add_dependencies(userland_modtypes_test ct_type_objects)
	foreach(v ${_variants})
		if(v STREQUAL notypes)
			set(_tn userland_modtypes_globals_without_type_information_are_refused)
		else()
			set(_tn userland_modtypes_${v}_types_sizes_offsets_members_and_d_programs)
		endif()
		add_test(NAME ${_tn} COMMAND userland_modtypes_test ${_cb}/libct_${v}.so)
		set_tests_properties(${_tn} PROPERTIES LABELS userland)
	endforeach()
	if(_ctf_rc EQUAL 0)
		add_test(NAME userland_modtypes_target_process_types_and_globals
			COMMAND userland_modtypes_test --target ${_cb}/ct_target)
		set_tests_properties(userland_modtypes_target_process_types_and_globals PROPERTIES LABELS userland)
	endif()
endif()

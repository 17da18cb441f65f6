# tests/e2e/types: D programs over the types and globals of loaded objects.
# The objects are tests/userland/ctf's (types.c as CTF and as DWARF 5); they
# are preloaded into the dtrace command so that they are among its modules.
# Included from ../CMakeLists.txt after its tests are defined.
if(TARGET dtrace_cmd AND DEFINED DT_CT_OBJDIR)
	file(GLOB _types_tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.d)
	foreach(script ${_types_tests})
		get_filename_component(name ${script} NAME_WE)
		if(DT_CT_HAVE_CTF)
			# ASan builds would refuse a preloaded library ahead of their runtime.
			# Under qemu-user the preload is for the guest alone
			# (QEMU_SET_ENV): the runner's own tools are this machine's.
			set(_ct_preload "${DT_CT_OBJDIR}/libct_ctf.so:${DT_CT_OBJDIR}/libct_dwarf5.so")
			if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
				set(_ct_preload "QEMU_SET_ENV=LD_PRELOAD=${_ct_preload}")
			else()
				set(_ct_preload "LD_PRELOAD=${_ct_preload}")
			endif()
			set_tests_properties(e2e_types_${name} PROPERTIES ENVIRONMENT
				"${_ct_preload};ASAN_OPTIONS=verify_asan_link_order=0")
		else()
			# Without gcc -gctf there is no CTF object to trace: say so and skip.
			set_tests_properties(e2e_types_${name} PROPERTIES DISABLED TRUE)
			message(STATUS "e2e_types_${name}: skipped: gcc does not accept -gctf")
		endif()
	endforeach()
endif()

# The D compiler's tests (dt_compiler against a fixed probe list); owner: dcc.
if(TARGET dt_compiler)
	add_executable(userland_compile_test ${CMAKE_CURRENT_LIST_DIR}/compile_test.c)
	target_link_libraries(userland_compile_test PRIVATE dt_compiler)
	add_test(NAME userland_compile COMMAND userland_compile_test)
	set_tests_properties(userland_compile PROPERTIES LABELS userland)

	# args[] typing over compile_probes.h's typed, translated and unresolvable arguments.
	add_executable(userland_compile_args ${CMAKE_CURRENT_LIST_DIR}/compile_args.c)
	target_link_libraries(userland_compile_args PRIVATE dt_compiler)
	add_test(NAME userland_compile_args_typing COMMAND userland_compile_args)
	set_tests_properties(userland_compile_args_typing PROPERTIES LABELS userland)

	# D_ID_OFLOW: as many variables as DIF can number, and not one more.
	add_executable(userland_compile_idspace ${CMAKE_CURRENT_LIST_DIR}/compile_idspace.c)
	target_link_libraries(userland_compile_idspace PRIVATE dt_compiler)
	add_test(NAME userland_compile_variable_id_limit COMMAND userland_compile_idspace)
	set_tests_properties(userland_compile_variable_id_limit PROPERTIES LABELS userland)

	# How the grammar reads the constructs that could be read two ways.
	add_executable(userland_compile_grammar ${CMAKE_CURRENT_LIST_DIR}/compile_grammar.c)
	target_link_libraries(userland_compile_grammar PRIVATE dt_compiler)
	add_test(NAME userland_compile_grammar COMMAND userland_compile_grammar)
	set_tests_properties(userland_compile_grammar PROPERTIES LABELS userland)

	# Declarations as DTrace takes them: large enums, externs, typedefs, inline chains.
	add_executable(userland_compile_decl ${CMAKE_CURRENT_LIST_DIR}/compile_decl.c)
	target_link_libraries(userland_compile_decl PRIVATE dt_compiler)
	add_test(NAME userland_compile_declarations COMMAND userland_compile_decl)
	set_tests_properties(userland_compile_declarations PROPERTIES LABELS userland)

	# -x ctypes, dtypes: the CTF of DTrace's "C" and "D" containers, read back with libctf.
	add_executable(userland_compile_ctftypes ${CMAKE_CURRENT_LIST_DIR}/compile_ctftypes.c)
	target_link_libraries(userland_compile_ctftypes PRIVATE dt_compiler)
	target_include_directories(userland_compile_ctftypes PRIVATE ${DT_CTF_INCLUDE})
	add_test(NAME userland_compile_ctf_types_written COMMAND userland_compile_ctftypes)
	set_tests_properties(userland_compile_ctf_types_written PROPERTIES LABELS userland)

	# -S: DTrace's listing format and the DIF of representative programs.
	add_executable(userland_compile_dis ${CMAKE_CURRENT_LIST_DIR}/compile_dis.c)
	target_link_libraries(userland_compile_dis PRIVATE dt_compiler)
	add_test(NAME userland_compile_disassembly COMMAND userland_compile_dis)
	set_tests_properties(userland_compile_disassembly PROPERTIES LABELS userland)

	# fuzz_dcc's kept corpus (corpus/dcc: every D source that once crashed,
	# leaked or hung the compiler, named crash-*/leak-*/timeout-*, plus seeds
	# that reach deep) replayed with the ordinary compiler; under the asan
	# preset a leak fails it too.
	add_executable(fuzz_replay_dcc ${PROJECT_SOURCE_DIR}/tests/core/fuzz_replay_main.c
		${PROJECT_SOURCE_DIR}/fuzz/fuzz_dcc.c)
	target_link_libraries(fuzz_replay_dcc PRIVATE dt_compiler)
	add_test(NAME userland_fuzz_replay_dcc_corpus
		COMMAND fuzz_replay_dcc ${CMAKE_CURRENT_LIST_DIR}/corpus/dcc)
	set_tests_properties(userland_fuzz_replay_dcc_corpus PROPERTIES LABELS userland)

	# Every DIFO of a broad corpus passes the core's validator.
	if(TARGET dtrace_testport)
		add_executable(userland_compile_validate ${CMAKE_CURRENT_LIST_DIR}/compile_validate.c)
		target_link_libraries(userland_compile_validate PRIVATE dt_compiler dtrace_core dtrace_testport)
		add_test(NAME userland_compile_difos_pass_core_validator COMMAND userland_compile_validate)
		set_tests_properties(userland_compile_difos_pass_core_validator PROPERTIES LABELS userland)
	endif()
endif()

# print(): the consumer's formatting of compiled types (dt_print_typed.c) on synthetic records.
if(TARGET dt_compiler AND TARGET dtrace)
	add_executable(userland_compile_print ${CMAKE_CURRENT_LIST_DIR}/compile_print.c)
	target_link_libraries(userland_compile_print PRIVATE dtrace)
	add_test(NAME userland_print_formats_types_as_dtrace COMMAND userland_compile_print)
	set_tests_properties(userland_print_formats_types_as_dtrace PROPERTIES LABELS userland)
endif()

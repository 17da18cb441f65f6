# The consumer's unit tests: each test_printf_*.c, test_aggregate_*.c,
# test_consume_*.c and test_options_*.c here is one executable and one CTest
# test (label userland), linked with the library `dtrace` only: most format
# synthetic records through a handle that reaches no core; test_consume_api
# traces through the public interface with a real core.
if(TARGET dtrace)
	file(GLOB DT_CONSUMER_TESTS CONFIGURE_DEPENDS
		${CMAKE_CURRENT_SOURCE_DIR}/test_printf_*.c
		${CMAKE_CURRENT_SOURCE_DIR}/test_aggregate_*.c
		${CMAKE_CURRENT_SOURCE_DIR}/test_consume_*.c
		${CMAKE_CURRENT_SOURCE_DIR}/test_options_*.c)
	foreach(src ${DT_CONSUMER_TESTS})
		get_filename_component(name ${src} NAME_WE)
		add_executable(${name} ${src})
		target_link_libraries(${name} PRIVATE dtrace)
		target_compile_options(${name} PRIVATE -Wno-unused-function)
		add_test(NAME userland_${name} COMMAND ${name})
		set_tests_properties(userland_${name} PROPERTIES LABELS userland)
	endforeach()

	# fuzz_consume's kept corpus (corpus/consume: snapshots that once crashed
	# or tripped a sanitizer in the consumer, named crash-*, plus seeds that
	# reach every record kind) replayed with the ordinary compiler.
	add_executable(fuzz_replay_consume ${PROJECT_SOURCE_DIR}/tests/core/fuzz_replay_main.c
		${PROJECT_SOURCE_DIR}/fuzz/fuzz_consume.c)
	target_link_libraries(fuzz_replay_consume PRIVATE dtrace)
	add_test(NAME userland_fuzz_replay_consume_corpus
		COMMAND fuzz_replay_consume ${CMAKE_CURRENT_LIST_DIR}/corpus/consume)
	set_tests_properties(userland_fuzz_replay_consume_corpus PROPERTIES LABELS userland)
endif()

# The D compiler half of libdtrace: D source text to DOF (see dt_compile.h).
find_package(BISON 3.0 REQUIRED)
find_package(FLEX 2.6 REQUIRED)

set(_dtc ${CMAKE_CURRENT_SOURCE_DIR})
set(_dtb ${CMAKE_CURRENT_BINARY_DIR}/dt_compiler_gen)
file(MAKE_DIRECTORY ${_dtb})
BISON_TARGET(dt_grammar ${_dtc}/dt_grammar.y ${_dtb}/dt_grammar.c
	DEFINES_FILE ${_dtb}/dt_grammar.h COMPILE_FLAGS "-Wno-other")
FLEX_TARGET(dt_lex ${_dtc}/dt_lex.l ${_dtb}/dt_lex.c)
ADD_FLEX_BISON_DEPENDENCY(dt_lex dt_grammar)

add_library(dt_compiler STATIC
	${_dtc}/dt_parse.c ${_dtc}/dt_treedump.c ${_dtc}/dt_types.c ${_dtc}/dt_decl.c ${_dtc}/dt_ident.c
	${_dtc}/dt_check.c ${_dtc}/dt_sugar.c ${_dtc}/dt_cg.c ${_dtc}/dt_action.c ${_dtc}/dt_dof.c ${_dtc}/dt_dis.c
	${_dtc}/dt_modtypes.c ${_dtc}/dt_ctf.c ${_dtc}/dt_dwarf.c ${_dtc}/dt_ctf_write.c
	${_dtc}/regs/${DTRACE_ISA}.c # uregs[] names of the target ISA (dt_regs.h)
	${BISON_dt_grammar_OUTPUTS} ${FLEX_dt_lex_OUTPUTS})
target_include_directories(dt_compiler PUBLIC ${_dtc} ${PROJECT_SOURCE_DIR}/core PRIVATE ${_dtb})
set_target_properties(dt_compiler PROPERTIES POSITION_INDEPENDENT_CODE ON)
# generated scanner/parser code trips warnings we do not control
set_source_files_properties(${BISON_dt_grammar_OUTPUTS} ${FLEX_dt_lex_OUTPUTS} PROPERTIES
	COMPILE_OPTIONS "-Wno-unused-function;-Wno-sign-compare;-Wno-unused-parameter;-Wno-unused-but-set-variable")
# Module types (dt_modtypes.h): CTF with libctf (binutils-dev), DWARF with libdwarf, ELF symbols with libelf.
find_library(DT_LIBCTF ctf REQUIRED)
find_path(DT_CTF_INCLUDE ctf-api.h REQUIRED)
find_library(DT_LIBDWARF dwarf REQUIRED)
find_path(DT_DWARF_INCLUDE libdwarf/libdwarf.h REQUIRED)
find_package(Threads REQUIRED)
target_include_directories(dt_compiler PRIVATE ${DT_CTF_INCLUDE} ${DT_DWARF_INCLUDE})
target_link_libraries(dt_compiler PUBLIC ${DT_LIBCTF} ${DT_LIBDWARF} dt_elf Threads::Threads)

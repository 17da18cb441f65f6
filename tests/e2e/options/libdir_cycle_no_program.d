/*
 * Not compiled: dtrace -L dir -e is given no program.  DTrace still reads
 * the libraries, when dtrace_handle_err() compiles its ERROR program, and
 * the dependency cycle fails that.
 */

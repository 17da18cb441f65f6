/*
 * Not compiled: dtrace -L dir -e is given no program, yet the libraries
 * are read (DTrace's ERROR program is compiled), and those whose
 * dependency is missing or failed to load are skipped; -x debug says so.
 */

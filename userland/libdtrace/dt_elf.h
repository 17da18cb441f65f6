/*
 * dt_elf.h: opening ELF files with libelf, shared by the compiler's module
 * types (dt_modtypes.c, dt_ctf.c) and the consumer's symbol tables
 * (dt_symtab.c).  Built as the small library dt_elf that both link.
 */
#ifndef DT_ELF_H
#define DT_ELF_H

#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * Open the ELF object at `path` for reading: its handle, with *fdp the file
 * descriptor to give back to dt_elf_close(); NULL (nothing left open) when
 * the file cannot be opened or is not an ELF object.
 */
Elf *dt_elf_open(const char *path, int *fdp);

/* Release what dt_elf_open() returned. */
void dt_elf_close(Elf *elf, int fd);

/*
 * The link-time address of file offset 0 (the first PT_LOAD's p_vaddr minus
 * its p_offset; 0 when there is none), which turns a mapping's address into
 * the object's load bias; *isexec says whether it is a fixed-address
 * executable (ET_EXEC).
 */
uint64_t dt_elf_loadbase(Elf *elf, bool *isexec);

#endif /* DT_ELF_H */

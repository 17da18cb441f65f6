/*
 * dt_elf.c: opening ELF files with libelf (see dt_elf.h).
 */
#include <fcntl.h>
#include <unistd.h>

#include "dt_elf.h"

Elf *
dt_elf_open(const char *path, int *fdp)
{
	Elf *elf;
	int fd;

	if (elf_version(EV_CURRENT) == EV_NONE || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return NULL;
	if ((elf = elf_begin(fd, ELF_C_READ, NULL)) == NULL || elf_kind(elf) != ELF_K_ELF) {
		if (elf != NULL)
			(void)elf_end(elf);
		(void)close(fd);
		return NULL;
	}
	*fdp = fd;
	return elf;
}

void
dt_elf_close(Elf *elf, int fd)
{
	(void)elf_end(elf);
	(void)close(fd);
}

uint64_t
dt_elf_loadbase(Elf *elf, bool *isexec)
{
	GElf_Ehdr eh;
	size_t n;

	*isexec = gelf_getehdr(elf, &eh) != NULL && eh.e_type == ET_EXEC;
	if (elf_getphdrnum(elf, &n) != 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) != NULL && ph.p_type == PT_LOAD)
			return ph.p_vaddr - ph.p_offset;
	}
	return 0;
}

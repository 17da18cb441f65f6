/*
 * fuzz/dof_seeds.c: seed corpus for fuzz_dof and fuzz_dif.
 *
 * Random bytes rarely get past the DOF loader's first checks, so the
 * fuzzers start from what the D compiler really emits: each D file named on
 * the command line is compiled (files that do not compile are skipped) and
 * its DOF image written to DOFDIR.  With a second directory, every DIFO of
 * those images is also written there in fuzz_dif's input encoding.
 *
 *   dof_seeds DOFDIR [DIFDIR] file.d ...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dt_compile.h"

static int
write_file(const char *dir, const char *kind, unsigned n, const void *data, size_t size)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s-%05u", dir, kind, n);
	if ((fp = fopen(path, "wb")) == NULL)
		return -1;
	if (size != 0 && fwrite(data, size, 1, fp) != 1) {
		fclose(fp);
		return -1;
	}
	return fclose(fp);
}

static const dof_sec_t *
section(const dt_cprog_t *p, uint32_t i)
{
	const dof_hdr_t *h = p->dof;

	if (i >= h->dofh_secnum)
		return NULL;
	return (const dof_sec_t *)(const void *)((const char *)p->dof + h->dofh_secoff +
						 (size_t)i * h->dofh_secsize);
}

static void
put(unsigned char *buf, size_t *len, size_t max, uint64_t v, size_t bytes)
{
	for (size_t i = 0; i < bytes && *len < max; i++)
		buf[(*len)++] = (unsigned char)(v >> (8 * i));
}

/*
 * Write each DIFO of the image in fuzz_dif's input encoding (see
 * fuzz/fuzz_dif.c): strsize, counts and privilege, then the instructions,
 * integers, strings, variables and return type.
 */
static unsigned
write_difs(const char *difdir, const dt_cprog_t *p, unsigned n)
{
	const dof_hdr_t *h = p->dof;

	for (uint32_t i = 0; i < h->dofh_secnum; i++) {
		const dof_sec_t *s = section(p, i), *l;
		const dof_difohdr_t *dh;
		const char *text = NULL, *strs = NULL;
		const uint64_t *ints = NULL;
		const dtrace_difv_t *vars = NULL;
		size_t ntext = 0, nints = 0, nstrs = 0, nvars = 0, len = 0;
		unsigned char buf[4096];

		if (s->dofs_type != DOF_SECT_DIFOHDR)
			continue;
		dh = (const dof_difohdr_t *)(const void *)((const char *)p->dof + s->dofs_offset);
		for (size_t k = 0; k < (s->dofs_size - sizeof(dh->dofd_rtype)) / sizeof(dof_secidx_t);
		     k++) {
			const char *data;

			if ((l = section(p, dh->dofd_links[k])) == NULL)
				continue;
			data = (const char *)p->dof + l->dofs_offset;
			switch (l->dofs_type) {
			case DOF_SECT_DIF:
				text = data;
				ntext = l->dofs_size / sizeof(dif_instr_t);
				break;
			case DOF_SECT_INTTAB:
				ints = (const uint64_t *)(const void *)data;
				nints = l->dofs_size / sizeof(uint64_t);
				break;
			case DOF_SECT_STRTAB:
				strs = data;
				nstrs = l->dofs_size;
				break;
			case DOF_SECT_VARTAB:
				vars = (const dtrace_difv_t *)(const void *)data;
				nvars = l->dofs_size / sizeof(dtrace_difv_t);
				break;
			default:
				break;
			}
		}
		if (ntext == 0 || ntext > 64 || nints > 15 || nstrs > 127 || nvars > 7)
			continue; /* beyond what fuzz_dif encodes */
		put(buf, &len, sizeof(buf), 256 - 16, 1); /* strsize 256 */
		put(buf, &len, sizeof(buf), ntext - 1, 1);
		put(buf, &len, sizeof(buf), nints, 1);
		put(buf, &len, sizeof(buf), nstrs, 1);
		put(buf, &len, sizeof(buf), nvars, 1);
		put(buf, &len, sizeof(buf), DTRACE_PRIV_ALL, 1);
		for (size_t k = 0; k < ntext; k++) {
			dif_instr_t ins;

			memcpy(&ins, text + k * sizeof(ins), sizeof(ins));
			put(buf, &len, sizeof(buf), ins, 4);
		}
		for (size_t k = 0; k < nints; k++)
			put(buf, &len, sizeof(buf), ints[k], 8);
		for (size_t k = 0; k < nstrs; k++)
			put(buf, &len, sizeof(buf), (unsigned char)strs[k], 1);
		for (size_t k = 0; k < nvars; k++) {
			put(buf, &len, sizeof(buf), vars[k].dtdv_id & 7, 1);
			put(buf, &len, sizeof(buf), vars[k].dtdv_id >= 0x500, 1);
			put(buf, &len, sizeof(buf), vars[k].dtdv_kind, 1);
			put(buf, &len, sizeof(buf), vars[k].dtdv_scope, 1);
			put(buf, &len, sizeof(buf), vars[k].dtdv_type.dtdt_kind, 1);
			put(buf, &len, sizeof(buf), vars[k].dtdv_type.dtdt_flags, 1);
			put(buf, &len, sizeof(buf), vars[k].dtdv_type.dtdt_size, 2);
		}
		put(buf, &len, sizeof(buf), dh->dofd_rtype.dtdt_kind, 1);
		put(buf, &len, sizeof(buf), dh->dofd_rtype.dtdt_flags, 1);
		put(buf, &len, sizeof(buf), dh->dofd_rtype.dtdt_size, 1);
		if (write_file(difdir, "dif", n++, buf, len) != 0)
			break;
	}
	return n;
}

int
main(int argc, char **argv)
{
	const char *dofdir, *difdir = NULL;
	unsigned ndof = 0, ndif = 0;
	int first = 2;

	if (argc < 3) {
		fprintf(stderr, "usage: dof_seeds DOFDIR [DIFDIR] file.d ...\n");
		return 2;
	}
	dofdir = argv[1];
	if (argc > 3 && strstr(argv[2], ".d") == NULL) {
		difdir = argv[2];
		first = 3;
	}
	for (int i = first; i < argc; i++) {
		FILE *fp = fopen(argv[i], "r");
		dt_cprog_t *p;

		if (fp == NULL)
			continue;
		p = dt_compile_file(fp, NULL);
		fclose(fp);
		if (p != NULL && !p->err.failed && p->dof != NULL) {
			if (write_file(dofdir, "dof", ndof++, p->dof, p->dof_size) != 0) {
				perror(dofdir);
				return 1;
			}
			if (difdir != NULL)
				ndif = write_difs(difdir, p, ndif);
		}
		dt_cprog_free(p);
	}
	printf("dof_seeds: %u DOF images, %u DIF texts\n", ndof, ndif);
	return 0;
}

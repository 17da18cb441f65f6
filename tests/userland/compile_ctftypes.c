/*
 * compile_ctftypes.c: -x ctypes and dtypes.  The CTF written when a
 * compilation ends is read back with libctf: DTrace's "C" container holds
 * the C intrinsic types and those of headers cpp included, its "D"
 * container (whose parent is "C") D's own typedefs, string, and the types
 * the program declares.
 */
#include <ctf-api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile_probes.h"
#include "ct_check.h"

static const char prog[] = "struct foo {\n"
			   "\tint a;\n"
			   "\tchar *name;\n"
			   "\tunsigned int flag : 3;\n"
			   "};\n"
			   "typedef struct foo foo_t;\n"
			   "enum color { RED, GREEN = 5 };\n"
			   "BEGIN\n"
			   "{\n"
			   "\texit(0);\n"
			   "}\n";

static char *
slurp(int fd, size_t *lenp)
{
	off_t len = lseek(fd, 0, SEEK_END);
	char *buf;

	if (len <= 0 || (buf = malloc((size_t)len)) == NULL)
		return NULL;
	if (pread(fd, buf, (size_t)len, 0) != len) {
		free(buf);
		return NULL;
	}
	*lenp = (size_t)len;
	return buf;
}

static ctf_dict_t *
open_ctf(int fd, char **bufp)
{
	ctf_sect_t sect;
	size_t len;
	int err;

	memset(&sect, 0, sizeof(sect));
	if ((*bufp = slurp(fd, &len)) == NULL)
		return NULL;
	sect.cts_name = ".ctf";
	sect.cts_data = *bufp;
	sect.cts_size = len;
	return ctf_bufopen(&sect, NULL, NULL, &err);
}

static int
tmpfd(void)
{
	char name[] = "/tmp/ctftypesXXXXXX";
	int fd = mkstemp(name);

	if (fd != -1)
		(void)unlink(name);
	return fd;
}

int
main(void)
{
	dt_copts_t o;
	dt_cprog_t *p;
	ctf_dict_t *c, *d;
	char *cbuf = NULL, *dbuf = NULL;
	ctf_id_t id;
	ctf_membinfo_t mi;
	ctf_arinfo_t ar;
	int cfd = tmpfd(), dfd = tmpfd(), val;
	FILE *f;

	CHECK(cfd != -1 && dfd != -1, "temporary files");
	ct_opts(&o, 0);
	o.filename = "ctf.d";
	o.ctypes_fd = cfd;
	o.dtypes_fd = dfd;
	f = fmemopen((void *)prog, strlen(prog), "r");
	p = dt_compile_file(f, &o);
	fclose(f);
	CHECK(p != NULL && !p->err.failed, "compiles: %s", p != NULL ? p->err.text : "NULL");
	dt_cprog_free(p);

	c = open_ctf(cfd, &cbuf);
	d = open_ctf(dfd, &dbuf);
	CHECK(c != NULL && d != NULL, "both files hold CTF");
	if (c == NULL || d == NULL)
		return 1;

	/* "C": the intrinsic types, not D's typedefs nor the program's types */
	id = ctf_lookup_by_name(c, "int");
	CHECK(id != CTF_ERR && ctf_type_kind(c, id) == CTF_K_INTEGER && ctf_type_size(c, id) == 4, "C int");
	id = ctf_lookup_by_name(c, "long double");
	CHECK(id != CTF_ERR && ctf_type_kind(c, id) == CTF_K_FLOAT, "C long double");
	CHECK(ctf_lookup_by_name(c, "uint8_t") == CTF_ERR, "uint8_t is D's, not C's");
	CHECK(ctf_lookup_by_name(c, "struct foo") == CTF_ERR, "struct foo is D's, not C's");

	/* "D": child of "C" */
	CHECK(ctf_parent_name(d) != NULL && strcmp(ctf_parent_name(d), "C") == 0, "D's parent is C");
	CHECK(ctf_import(d, c) == 0, "D imports C");
	id = ctf_lookup_by_name(d, "uint8_t");
	CHECK(id != CTF_ERR && ctf_type_kind(d, id) == CTF_K_TYPEDEF && ctf_type_size(d, id) == 1, "D uint8_t");
	id = ctf_lookup_by_name(d, "string");
	CHECK(id != CTF_ERR && ctf_type_kind(d, id) == CTF_K_TYPEDEF, "D string");
	if (id != CTF_ERR) {
		ctf_id_t arr = ctf_type_reference(d, id);
		CHECK(ctf_array_info(d, arr, &ar) == 0 && ar.ctr_nelems == 256, "string is char [256]");
	}
	id = ctf_lookup_by_name(d, "struct foo");
	/* D's layout: the 3-bit field takes a byte at 16, and no tail padding follows */
	CHECK(id != CTF_ERR && ctf_type_kind(d, id) == CTF_K_STRUCT && ctf_type_size(d, id) == 17,
	      "struct foo, 17 bytes: %ld", id != CTF_ERR ? (long)ctf_type_size(d, id) : -1L);
	CHECK(id != CTF_ERR && ctf_member_info(d, id, "name", &mi) == 0 && mi.ctm_offset == 64 &&
	          ctf_type_kind(d, mi.ctm_type) == CTF_K_POINTER,
	      "foo.name: a pointer at bit 64");
	CHECK(id != CTF_ERR && ctf_member_info(d, id, "flag", &mi) == 0 && mi.ctm_offset == 128,
	      "foo.flag at bit 128");
	id = ctf_lookup_by_name(d, "foo_t");
	CHECK(id != CTF_ERR && ctf_type_kind(d, id) == CTF_K_TYPEDEF &&
	          ctf_type_kind(d, ctf_type_resolve(d, id)) == CTF_K_STRUCT,
	      "foo_t is struct foo");
	id = ctf_lookup_by_name(d, "enum color");
	CHECK(id != CTF_ERR && ctf_enum_value(d, id, "GREEN", &val) == 0 && val == 5, "GREEN = 5");

	ctf_dict_close(d);
	ctf_dict_close(c);
	free(cbuf);
	free(dbuf);

	/* -C: a type declared in an included header is "C"'s */
	{
		char dir[] = "/tmp/ctfhdrXXXXXX", hdr[64], inc[80];
		const char *src = "#include \"bar.h\"\nstruct mine { int x; };\nBEGIN { exit(0); }\n";
		char *argv[1];
		FILE *h;

		CHECK(mkdtemp(dir) != NULL, "temporary directory");
		(void)snprintf(hdr, sizeof(hdr), "%s/bar.h", dir);
		(void)snprintf(inc, sizeof(inc), "-I%s", dir);
		if ((h = fopen(hdr, "w")) != NULL) {
			fputs("struct bar { long b; };\n", h);
			fclose(h);
		}
		argv[0] = inc;
		ct_opts(&o, DT_C_CPP);
		o.filename = "hdr.d";
		o.cpp_argc = 1;
		o.cpp_argv = argv;
		o.ctypes_fd = cfd;
		o.dtypes_fd = dfd;
		f = fmemopen((void *)src, strlen(src), "r");
		p = dt_compile_file(f, &o);
		fclose(f);
		CHECK(p != NULL && !p->err.failed, "-C compiles: %s", p != NULL ? p->err.text : "NULL");
		dt_cprog_free(p);
		(void)unlink(hdr);
		(void)rmdir(dir);
		c = open_ctf(cfd, &cbuf);
		d = open_ctf(dfd, &dbuf);
		CHECK(c != NULL && d != NULL && ctf_import(d, c) == 0, "-C: both files hold CTF");
		if (c != NULL && d != NULL) {
			CHECK(ctf_lookup_by_name(c, "struct bar") != CTF_ERR, "struct bar of bar.h is C's");
			CHECK(ctf_lookup_by_name(c, "struct mine") == CTF_ERR, "struct mine is not C's");
			id = ctf_lookup_by_name(d, "struct mine");
			CHECK(id != CTF_ERR && ctf_type_size(d, id) == 4, "struct mine is D's");
		}
		if (d != NULL)
			ctf_dict_close(d);
		if (c != NULL)
			ctf_dict_close(c);
		free(cbuf);
		free(dbuf);
	}
	printf("%d passed, %d failed\n", passes, failures);
	return failures != 0;
}

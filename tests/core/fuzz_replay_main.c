/*
 * tests/core/fuzz_replay_main.c: replay a fuzz target's corpus as a test.
 *
 * Linked with one of fuzz/fuzz_dof.c or fuzz/fuzz_dif.c (built here with
 * the ordinary compiler, no libFuzzer; tests/userland links fuzz_dcc.c with
 * it for corpus/dcc there), this runs LLVMFuzzerTestOneInput on
 * every file of the directories named on the command line.  The corpora in
 * tests/core/corpus/ hold every input that once crashed or leaked in the
 * core (named crash-*), plus a few seeds that reach deep; the targets abort
 * on a leak or a broken invariant, so a regression fails the test.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size);

static int
replay_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf;
	long size;

	if (fp == NULL || fseek(fp, 0, SEEK_END) != 0 || (size = ftell(fp)) < 0 ||
	    fseek(fp, 0, SEEK_SET) != 0) {
		perror(path);
		if (fp != NULL)
			fclose(fp);
		return -1;
	}
	buf = malloc(size != 0 ? (size_t)size : 1);
	if (buf == NULL || (size != 0 && fread(buf, (size_t)size, 1, fp) != 1)) {
		perror(path);
		free(buf);
		fclose(fp);
		return -1;
	}
	fclose(fp);
	(void)LLVMFuzzerTestOneInput(buf, (size_t)size);
	free(buf);
	return 0;
}

int
main(int argc, char **argv)
{
	int files = 0;

	for (int i = 1; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		struct dirent *e;

		if (d == NULL) {
			perror(argv[i]);
			return 1;
		}
		while ((e = readdir(d)) != NULL) {
			char path[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			if (replay_file(path) != 0) {
				closedir(d);
				return 1;
			}
			files++;
		}
		closedir(d);
	}
	printf("replayed %d inputs\n", files);
	return files != 0 ? 0 : 1;
}

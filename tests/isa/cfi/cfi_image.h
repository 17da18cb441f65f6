/*
 * tests/isa/cfi/cfi_image.h: hand-built unwind data for the CFI tests.
 *
 * An "image" is what the linker would have produced for a module: CIEs
 * and FDEs in img_eh[] (.eh_frame), a sorted search table in img_hdr[]
 * (.eh_frame_hdr, version 1, eh_frame_ptr pcrel|sdata4, fde_count udata4,
 * table datarel|sdata4), and a text range img_text[] the FDEs describe.
 * The text is never executed: only its addresses matter.  Register numbers
 * are the ISA's DWARF ones (ISA_DWARF_* of isa_regs.h), so the same tests
 * run for every processor.
 */
#ifndef DTRACE_TESTS_ISA_CFI_IMAGE_H
#define DTRACE_TESTS_ISA_CFI_IMAGE_H

#include <stdint.h>
#include <string.h>

#include "isa.h"

#define IMG_TEXT 0x10000
#define IMG_EH 65536
#define IMG_MAX_FDES 1024

static uint8_t img_text[IMG_TEXT] __attribute__((aligned(16)));
static uint8_t img_eh[IMG_EH] __attribute__((aligned(16)));
static uint8_t img_hdr[16 + 8 * IMG_MAX_FDES] __attribute__((aligned(16)));
static size_t img_n;

typedef struct img_fde {
	uint64_t f_begin;
	size_t f_off;
} img_fde_t;
static img_fde_t img_fdes[IMG_MAX_FDES];
static size_t img_nfdes;

/* A CIE as the FDE builder must know it. */
typedef struct img_cie {
	size_t c_off;
	uint8_t c_enc; /* FDE pointer encoding */
	bool c_z;      /* "z": FDEs carry an augmentation length */
	bool c_is64;   /* 64-bit DWARF lengths */
} img_cie_t;

#define TEXT(off) ((uint64_t)(uintptr_t)img_text + (off))

static void
put8(uint8_t v)
{
	if (img_n < IMG_EH)
		img_eh[img_n++] = v;
}

static void
put_bytes(const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n-- > 0)
		put8(*b++);
}

static void
put_fixed(uint64_t v, size_t n)
{
	/* The processor's byte order, as the walker reads it. */
	union {
		uint64_t u64;
		uint32_t u32;
		uint16_t u16;
		uint8_t b[8];
	} u;

	if (n == 8)
		u.u64 = v;
	else if (n == 4)
		u.u32 = (uint32_t)v;
	else if (n == 2)
		u.u16 = (uint16_t)v;
	else
		u.b[0] = (uint8_t)v;
	put_bytes(u.b, n);
}

static void
put_uleb(uint64_t v)
{
	do {
		uint8_t b = v & 0x7f;

		v >>= 7;
		put8(b | (v != 0 ? 0x80 : 0));
	} while (v != 0);
}

static void
put_sleb(int64_t v)
{
	bool more = true;

	while (more) {
		uint8_t b = v & 0x7f;

		v >>= 7;
		more = !((v == 0 && (b & 0x40) == 0) || (v == -1 && (b & 0x40) != 0));
		put8(b | (more ? 0x80 : 0));
	}
}

/* Patch the length word of the entry at off, padding it to 8 bytes. */
static void
finish_entry(size_t off, bool is64)
{
	size_t body = off + (is64 ? 12 : 4);
	uint64_t len;

	while ((img_n - body) % 8 != 0)
		put8(0); /* DW_CFA_nop */
	len = img_n - body;
	if (is64)
		memcpy(&img_eh[off + 4], &len, 8);
	else
		memcpy(&img_eh[off], &(uint32_t){(uint32_t)len}, 4);
}

static void
start_entry(bool is64)
{
	if (is64) {
		put_fixed(0xffffffff, 4);
		put_fixed(0, 8);
	} else {
		put_fixed(0, 4);
	}
}

/*
 * A CIE: augmentation aug, alignment factors, return-address column ra,
 * augmentation data (after "z"'s length, or inline without "z"), initial
 * instructions.  version 1 stores ra in a byte, 3 as ULEB128.
 */
static img_cie_t
img_cie_full(int version, bool is64, const char *aug, uint64_t code_align, int64_t data_align,
             unsigned ra, uint8_t fde_enc, const uint8_t *augdata, size_t naug,
             const uint8_t *insns, size_t ninsns)
{
	img_cie_t c = {img_n, fde_enc, aug[0] == 'z', is64};

	start_entry(is64);
	put_fixed(0, 4); /* CIE id: 4 bytes in either form */
	put8((uint8_t)version);
	put_bytes(aug, strlen(aug) + 1);
	put_uleb(code_align);
	put_sleb(data_align);
	if (version == 1)
		put8((uint8_t)ra);
	else
		put_uleb(ra);
	if (c.c_z)
		put_uleb(naug);
	put_bytes(augdata, naug);
	put_bytes(insns, ninsns);
	finish_entry(c.c_off, is64);
	return c;
}

/* The usual CIE: "zR", code alignment 1, data alignment -8, FDE
 * addresses pcrel|sdata4. */
static img_cie_t
img_cie(const uint8_t *insns, size_t ninsns)
{
	static const uint8_t enc = 0x1b;

	return img_cie_full(1, false, "zR", 1, -8, ISA_DWARF_RA, enc, &enc, 1, insns, ninsns);
}

/* Write a pointer in encoding enc at the current position. */
static void
put_pointer(uint8_t enc, uint64_t v)
{
	uint64_t at = (uint64_t)(uintptr_t)&img_eh[img_n];

	if ((enc & 0x70) == 0x10)
		v -= at;
	switch (enc & 0x0f) {
	case 0x00:
	case 0x04:
	case 0x0c:
		put_fixed(v, 8);
		break;
	case 0x02:
	case 0x0a:
		put_fixed(v, 2);
		break;
	case 0x03:
	case 0x0b:
		put_fixed(v, 4);
		break;
	case 0x01:
		put_uleb(v);
		break;
	case 0x09:
		put_sleb((int64_t)v);
		break;
	}
}

/* An FDE of cie for [begin, begin + range), listed in the search table
 * unless unlisted. */
static size_t
img_fde_full(img_cie_t cie, uint64_t begin, uint64_t range, const uint8_t *augdata, size_t naug,
             const uint8_t *insns, size_t ninsns, bool unlisted)
{
	size_t off = img_n, field;

	start_entry(cie.c_is64);
	field = img_n;
	put_fixed(field - cie.c_off, 4);
	put_pointer(cie.c_enc, begin);
	put_pointer(cie.c_enc & 0x0f, range);
	if (cie.c_z)
		put_uleb(naug);
	put_bytes(augdata, naug);
	put_bytes(insns, ninsns);
	finish_entry(off, cie.c_is64);
	if (!unlisted && img_nfdes < IMG_MAX_FDES) {
		img_fdes[img_nfdes].f_begin = begin;
		img_fdes[img_nfdes].f_off = off;
		img_nfdes++;
	}
	return off;
}

static size_t
img_fde(img_cie_t cie, uint64_t begin, uint64_t range, const uint8_t *insns, size_t ninsns)
{
	return img_fde_full(cie, begin, range, NULL, 0, insns, ninsns, false);
}

static int
fde_cmp(const void *a, const void *b)
{
	const img_fde_t *x = a, *y = b;

	return x->f_begin < y->f_begin ? -1 : x->f_begin > y->f_begin;
}

/* Write .eh_frame_hdr for the FDEs built so far and return the module. */
static isa_cfi_module_t
img_finish(void)
{
	uintptr_t hdr = (uintptr_t)img_hdr;
	uint32_t v;
	size_t i, p = 4;

	qsort(img_fdes, img_nfdes, sizeof(img_fdes[0]), fde_cmp);
	put_fixed(0, 4); /* .eh_frame terminator */
	img_hdr[0] = 1;
	img_hdr[1] = 0x1b;
	img_hdr[2] = 0x03;
	img_hdr[3] = 0x3b;
	v = (uint32_t)((uintptr_t)img_eh - (hdr + p));
	memcpy(&img_hdr[p], &v, 4);
	p += 4;
	v = (uint32_t)img_nfdes;
	memcpy(&img_hdr[p], &v, 4);
	p += 4;
	for (i = 0; i < img_nfdes; i++) {
		v = (uint32_t)(img_fdes[i].f_begin - hdr);
		memcpy(&img_hdr[p], &v, 4);
		v = (uint32_t)((uintptr_t)&img_eh[img_fdes[i].f_off] - hdr);
		memcpy(&img_hdr[p + 4], &v, 4);
		p += 8;
	}
	return (isa_cfi_module_t){TEXT(0), TEXT(IMG_TEXT), hdr};
}

/* CFA instructions with operands below 128 (one-byte LEB128). */
#define I_ADV(d) (uint8_t)(0x40 | (d))
#define I_OFFSET(r, n) (uint8_t)(0x80 | (r)), (uint8_t)(n)
#define I_RESTORE(r) (uint8_t)(0xc0 | (r))
#define I_DEF_CFA(r, off) 0x0c, (uint8_t)(r), (uint8_t)(off)
#define I_DEF_CFA_OFFSET(off) 0x0e, (uint8_t)(off)
#define I_DEF_CFA_REGISTER(r) 0x0d, (uint8_t)(r)
#define I_UNDEFINED(r) 0x07, (uint8_t)(r)
#define I_SAME(r) 0x08, (uint8_t)(r)
#define I_REGISTER(r, from) 0x09, (uint8_t)(r), (uint8_t)(from)
#define I_REMEMBER 0x0a
#define I_RESTORE_STATE 0x0b
#define I_OFFSET_EXT(r, n) 0x05, (uint8_t)(r), (uint8_t)(n)
#define I_RESTORE_EXT(r) 0x06, (uint8_t)(r)
#define I_VAL_OFFSET(r, n) 0x14, (uint8_t)(r), (uint8_t)(n)
#define I_NOP 0x00

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * tb-insns: a QEMU TCG plugin that counts the guest instructions executed
 * in each kernel translation block, between two markers in the guest.
 *
 *   qemu-system-x86_64 ... -plugin tb-insns.so,out=FILE,begin=ADDR,end=ADDR
 *
 * begin/end are the (non-PIE, static) addresses of two marker functions
 * of a guest program (pingpong.c); the counts of every block are taken
 * when the guest runs each, and FILE gets, at exit, one line per kernel
 * block executed in between:  "<vaddr hex> <instructions> <executions>".
 * The host symbolizes the addresses with the guest's /proc/kallsyms
 * (bench-profile.sh).
 *
 * Debian's QEMU 7.2 loads plugins but ships no qemu-plugin.h: the few
 * entry points used here are declared below, from the documented plugin
 * API (version 1, stable since QEMU 4.2).
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*vcpu_udata_cb)(unsigned int vcpu_index, void *userdata);
typedef void (*udata_cb)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  vcpu_udata_cb cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb cb,
				    void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* Kernel addresses on x86_64 are in the upper half. */
#define KERNEL_START	0xffff800000000000ULL

/* One translation of a kernel block (a block can be translated again). */
struct block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t count;		/* executions so far (inline add) */
	uint64_t at_begin;	/* count when the begin marker ran */
	uint64_t at_end;	/* count when the end marker ran */
	struct block *next;
};

static struct block *blocks;
static char *out_path;
static uint64_t begin_addr, end_addr;
static int state;		/* 0 before begin, 1 in the window, 2 after end */

static void snapshot(unsigned int vcpu, void *udata)
{
	bool begin = udata == &begin_addr;
	struct block *b;

	(void)vcpu;
	if (begin ? state != 0 : state != 1)
		return;
	for (b = blocks; b; b = b->next) {
		if (begin)
			b->at_begin = b->count;
		else
			b->at_end = b->count;
	}
	state = begin ? 1 : 2;
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t va = qemu_plugin_tb_vaddr(tb);
	struct block *b;

	(void)id;
	if (va == begin_addr || va == end_addr) {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, snapshot,
				QEMU_PLUGIN_CB_NO_REGS,
				va == begin_addr ? &begin_addr : &end_addr);
		return;
	}
	if (va < KERNEL_START)
		return;
	b = calloc(1, sizeof(*b));
	if (!b) {
		fprintf(stderr, "tb-insns: out of memory\n");
		exit(1);
	}
	b->vaddr = va;
	b->insns = qemu_plugin_tb_n_insns(tb);
	/* a block first translated inside the window counted from 0 */
	b->next = blocks;
	blocks = b;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->count, 1);
}

static void finish(qemu_plugin_id_t id, void *udata)
{
	FILE *f = fopen(out_path, "w");
	struct block *b;

	(void)id;
	(void)udata;
	if (!f) {
		perror(out_path);
		return;
	}
	if (state != 2)
		fprintf(f, "# incomplete: the guest ran %s\n",
			state ? "the begin marker only" : "no begin marker");
	for (b = blocks; b; b = b->next) {
		uint64_t n = (state == 2 ? b->at_end : b->count) - b->at_begin;

		if (n)
			fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
				b->vaddr, b->insns, n);
	}
	fclose(f);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out_path = strdup(argv[i] + 4);
		else if (!strncmp(argv[i], "begin=", 6))
			begin_addr = strtoull(argv[i] + 6, NULL, 0);
		else if (!strncmp(argv[i], "end=", 4))
			end_addr = strtoull(argv[i] + 4, NULL, 0);
		else {
			fprintf(stderr, "tb-insns: unknown argument %s\n", argv[i]);
			return -1;
		}
	}
	if (!out_path || !begin_addr || !end_addr) {
		fprintf(stderr, "tb-insns: needs out=FILE,begin=ADDR,end=ADDR\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, finish, NULL);
	return 0;
}

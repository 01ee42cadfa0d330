/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fixed-width types for code compiled both into the kernel modules and
 * into userspace: the kernel's own in the kernel, <stdint.h> outside.
 */
#ifndef FL_TYPES_H
#define FL_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#endif

#endif /* FL_TYPES_H */

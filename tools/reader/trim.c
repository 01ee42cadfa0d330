// SPDX-License-Identifier: GPL-2.0
/*
 * Dropping the resident pages of a file's mappings (see trim.h).
 */
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "trim.h"

void fl_trim_file(int fd)
{
	unsigned long start, end, ino, maj, min;
	struct stat st;
	char line[512];
	FILE *maps;

	if (fstat(fd, &st))
		return;
	maps = fopen("/proc/self/maps", "re");
	if (!maps)
		return;
	while (fgets(line, sizeof(line), maps)) {
		/* start-end perms offset major:minor inode [path] */
		if (sscanf(line, "%lx-%lx %*s %*x %lx:%lx %lu", &start, &end,
			   &maj, &min, &ino) != 5)
			continue;
		if (ino != (unsigned long)st.st_ino ||
		    makedev(maj, min) != st.st_dev)
			continue;
		madvise((void *)start, end - start, MADV_DONTNEED);
	}
	fclose(maps);
}

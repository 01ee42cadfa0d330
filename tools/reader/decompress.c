// SPDX-License-Identifier: GPL-2.0
/*
 * Uncompressed temporary copy of a trace.dat (see decompress.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decompress.h"
#include "tracecmd_private.h"

int fl_decompress_copy(int fd, unsigned long version, char *err, size_t errlen)
{
	const char *dir = getenv("TMPDIR");
	struct tracecmd_output *out = NULL;
	struct tracecmd_input *in;
	char path[PATH_MAX], src[64];
	int tfd, sfd;

	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(path, sizeof(path), "%s/fairlab-XXXXXX", dir);
	tfd = mkstemp(path);
	if (tfd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/*
	 * Unlinked at once, so that nothing is left behind whatever happens
	 * next (the guard may jump out of tracecmd_copy()); libtracecmd
	 * writes it through /proc/self/fd.
	 */
	unlink(path);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", tfd);
	/* A second open file description: its reads do not move @fd's offset. */
	snprintf(src, sizeof(src), "/proc/self/fd/%d", fd);
	sfd = open(src, O_RDONLY | O_CLOEXEC);
	in = sfd >= 0 ? tracecmd_alloc_fd(sfd, TRACECMD_FL_LOAD_NO_PLUGINS) : NULL;
	if (!in) {
		if (sfd >= 0)
			close(sfd);
	} else if (tracecmd_read_headers(in, 0) >= 0) {
		out = tracecmd_copy(in, path, TRACECMD_FILE_CPU_FLYRECORD_STATE,
				    (int)version, "none");
	}
	if (out)
		tracecmd_output_close(out);
	if (in)
		tracecmd_close(in);	/* closes sfd */
	if (!out || lseek(tfd, 0, SEEK_SET)) {
		snprintf(err, errlen, "cannot write an uncompressed copy in %s (full?)", dir);
		close(tfd);
		return -1;
	}
	return tfd;
}

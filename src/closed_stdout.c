/* Part of verify-claim (GPL-3.0-or-later). Linked into the binary only
 * (build.rs, `rustc-link-arg-bins`), never into the library.
 *
 * A run started with standard output closed (`verify-claim ... >&-`)
 * would write its verdict into nothing and exit as if it had been read:
 * the Rust runtime, before `main`, replaces a closed descriptor 0, 1 or 2
 * with /dev/null opened read-write. That is also exactly what Python's
 * `subprocess.DEVNULL`, daemon(3) and systemd's `StandardOutput=null`
 * give a program on purpose, so the two cannot be told apart once `main`
 * runs. This constructor runs before the Rust runtime does: a closed
 * descriptor 1 gets /dev/null opened *read-only*, so every write fails
 * (EBADF) and the run says "cannot write the output" and exits 2.
 *
 * Written in C because safe Rust (`#![forbid(unsafe_code)]`) has no code
 * that runs before the runtime's start-up, and no crate does this. Only
 * descriptor 1: a closed stderr keeps the runtime's /dev/null (messages
 * vanish; the exit status still tells).
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

__attribute__((constructor)) static void verify_claim_closed_stdout(void) {
    if (fcntl(1, F_GETFD) != -1 || errno != EBADF) {
        return;
    }
    int fd = open("/dev/null", O_RDONLY);
    if (fd >= 0 && fd != 1) {
        /* Descriptor 0 was closed too and took it: move it to 1 and leave
         * 0 closed for the runtime to fill. */
        dup2(fd, 1);
        close(fd);
    }
}

/*
 * nosys PROGRAM [ARG...]: runs PROGRAM where open_tree(2), move_mount(2)
 * and mount_setattr(2) answer ENOSYS, as they do under Valgrind 3.19 and
 * on kernels before them, so that the sandbox's fallback
 * (harness/isolation_legacy.c) is tested without Valgrind and without a
 * way into the executor that only tests use: a seccomp filter, inherited
 * by every process PROGRAM forks or executes.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NR(n) offsetof(struct seccomp_data, n)

int main(int argc, char **argv)
{
	struct sock_filter code[] = {
		/* another architecture's numbers mean other calls: left alone */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR(arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 4),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR(nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_open_tree, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_move_mount, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mount_setattr, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
	};
	struct sock_fprog prog = { .len = sizeof(code) / sizeof(code[0]), .filter = code };

	if (argc < 2) {
		fprintf(stderr, "usage: nosys PROGRAM [ARG...]\n");
		return 2;
	}
	/* without CAP_SYS_ADMIN a filter needs no_new_privs */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) {
		perror("nosys: seccomp");
		return 2;
	}
	/* the filter holds, or this says so rather than test the new calls */
	if (syscall(SYS_mount_setattr, -1, "", 0, NULL, 0) != -1 || errno != ENOSYS) {
		fprintf(stderr, "nosys: mount_setattr still there\n");
		return 2;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "nosys: %s: %s\n", argv[1], strerror(errno));
	return 127;
}

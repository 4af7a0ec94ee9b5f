/*
 * Whether a function pointer points into code: an executable segment of an
 * object the dynamic linker has loaded (the program, a library, a plugin).
 * Disciplines hand SFIO function pointers it will call later; random bytes
 * there would be a jump into data.  Code made at run time (JIT) is refused.
 */
#include <link.h>
#include <stdint.h>

#include "robust_code.h"

static int contains(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t addr = *(uintptr_t *)data;
	int i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) &&
		    addr >= start && addr - start < ph->p_memsz)
			return 1;
	}
	return 0;
}

int rs_code_ok(const void *fn)
{
	uintptr_t addr = (uintptr_t)fn;

	return fn && dl_iterate_phdr(contains, &addr);
}

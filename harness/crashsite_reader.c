/*
 * Reading a crash site (crashsite_reader.h).  Only the fork server runs this, and only
 * for a failing case, so it may format: the frames become the text the
 * store keeps, "MODULE+0xOFFSET" per line, MODULE the path the loader knew
 * the module by, "[unknown]" with the absolute pc for a pc in no module.
 */
#include <stdio.h>
#include <string.h>

#include "crashsite_reader.h"

/* si_addr is an address only for some signals (record.h), and only when
 * the kernel made the signal (si_code > 0): sent by a process (kill,
 * raise: SI_USER, SI_TKILL) it holds the sender's pid and uid. */
static int has_fault_addr(int sig, int code)
{
	return code > 0 && tb_signal_has_address(sig);
}

/* The module's path, or NULL when the record's names do not hold one
 * (a frames mark covers names_used, not every byte of the names). */
static const char *module_name(const struct tb_record *r, uint32_t at)
{
	uint32_t used = r->names_used < TB_SITE_NAMES ? r->names_used : TB_SITE_NAMES;

	if (at >= used || !memchr(r->names + at, '\0', used - at))
		return NULL;
	return r->names + at;
}

/* The frames as lines, as many whole lines as fit. */
static uint32_t frames_text(const struct tb_record *r, char *out)
{
	uint32_t i, len = 0;

	for (i = 0; i < r->nframes && i < TB_SITE_FRAMES; i++) {
		const struct tb_frame *f = &r->frames[i];
		const char *name = f->module == TB_NO_MODULE ? NULL : module_name(r, f->module);
		char line[TB_SITE_TEXT];
		int n = snprintf(line, sizeof(line), "%s%s+0x%llx", i ? "\n" : "",
				 name ? name : "[unknown]", (unsigned long long)f->offset);

		if (n < 0 || (size_t)n > TB_SITE_TEXT - len)
			break;
		memcpy(out + len, line, (size_t)n);
		len += (uint32_t)n;
	}
	return len;
}

uint32_t tb_site_read(const struct tb_record *r, struct tb_site *site)
{
	if (!r->dying_mark || r->dying_mark != tb_dying_mark(r))
		return 0;
	site->signal = r->dying_signal;
	site->code = r->dying_code;
	site->has_fault_addr = has_fault_addr(r->dying_signal, r->dying_code);
	site->fault_addr = site->has_fault_addr ? r->fault_addr : 0;
	site->sp = r->sp;
	site->stack_depth = r->stack_depth == TB_NO_DEPTH ? -1 : (int64_t)r->stack_depth;
	/* the dying mark without the frames mark: the unwinding never ended
	 * (the watchdog killed it), so the site has no frames */
	site->frames_len = r->frames_mark && r->frames_mark == tb_frames_mark(r)
			   ? frames_text(r, site->frames) : 0;
	return (uint32_t)(TB_SITE_HEAD + site->frames_len);
}

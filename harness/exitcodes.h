/*
 * trebuchet-exec's exit codes: the same table as src/trebuchet/core/exitcodes.py, which
 * the `trebuchet` CLI passes on unchanged.
 */
#ifndef TREBUCHET_EXITCODES_H
#define TREBUCHET_EXITCODES_H

enum tb_exit {
	TB_EXIT_OK = 0,
	/* 1 is the gate's verdict, never the executor's */
	TB_EXIT_INPUT = 2,        /* usage or input error: one line says what */
	TB_EXIT_HARNESS = 3,      /* a fork server died, the store broke */
	TB_EXIT_INTERRUPTED = 130 /* a signal stopped the run: --resume finishes it */
};

#endif

/* The Corrupt gate's test library (tests/test_gate_corrupt.py), built as
 * version 1 and as version 2 (-DCORRUPTLIB_V2): latent memory errors that
 * never crash a plain run, added, widened and fixed between the two. */
const char *cl_version(void);
int cl_copy(int code);
int cl_scan(int code);
int cl_fixed(int code);
int cl_clean(int code);

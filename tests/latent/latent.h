/* Functions with memory errors that never crash a plain run, and clean ones
 * beside them: what `trebuchet memcheck` must tell apart (tests/test_memcheck.py). */
int lt_overflow(int code);
int lt_overread(int code);
int lt_use_after_free(int code);
int lt_uninit(int code);
int lt_clean(int code);
int lt_clean_string(int code);

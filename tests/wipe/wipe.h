/* Functions that write through every shared mapping of their process, as a
 * wild write that happens to reach the harness's result channel would
 * (tests/test_channel.py). */
int ch_wipe_and_return(int code);
int ch_wipe_and_crash(int code);
int ch_wipe_and_exit(int code);

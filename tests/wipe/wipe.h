/* Functions whose runaway write sweeps down toward the harness's result
 * channel, as sodium_pad's over a huge block size did (tests/test_channel.py). */
int ch_wipe_and_return(int code);
int ch_wipe_and_crash(int code);
int ch_wipe_and_exit(int code);

"""Cases that passed, checked under Valgrind's memcheck: the Corrupt judge."""

"""TR-96-20's own figures at the six instances its Tables 5 to 7 quote,
which the protection page sets beside today's: Table 5's copying overhead
(cycles a byte, protected shared libraries copying against sharing) and
Table 7's beta-1 of software fault isolation.  md5's grain is Table 5's
512; Table 7 does not say its own."""

# ((bench, size, grain), title, Table 5's cycles a byte, Table 7's beta-1)
INSTANCES = [
    (("md5", 524288, 512), "md5 G=512", 8.04, 0.61),
    (("nsieve", 160000, 640), "nsieve 14,683", 1.20, 0.51),
    (("tdbm_i", 512, 1), "tdbm_i 512", 0.61, 0.24),
    (("tdbm_f", 512, 1), "tdbm_f 512", 0.66, 0.32),
    (("tdbm_d", 512, 1), "tdbm_d 512", 0.66, 0.84),
    (("nullc", 512, 1024), "nullc 1K", 9.37, 0.88),
]

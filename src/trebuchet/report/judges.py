"""The Silent, Hindering and Corrupt judges over some stores, as the report, the
export and a baseline ask for them: the newest finished run of each target
in each dictionary, judged with its specs read once."""
from trebuchet.memcheck import corrupt
from trebuchet.judge import hindering, silent
from trebuchet.spec.reads import SpecReads


def judge(sources, reads=None):
    """([ScaleTarget] Silent, [ScaleTarget] Hindering, [ScaleTarget]
    Corrupt) of sources, [(conn, db path)]."""
    reads = reads or SpecReads()
    return (silent.silent_targets(sources, reads.equivalents),
            hindering.hindering_targets(sources, reads.errnos),
            corrupt.corrupt_targets(sources))

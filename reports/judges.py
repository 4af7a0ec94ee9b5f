"""The Silent and Hindering judges over some stores, as the report, the
export and a baseline ask for them: the newest finished run of each target
in each dictionary, judged with its specs read once."""
from . import dictionaries, hindering, silent
from .spec_reads import SpecReads


def judge(sources, reads=None):
    """([ScaleTarget] Silent, [ScaleTarget] Hindering) of sources, [(conn,
    db path)]."""
    reads = reads or SpecReads()
    newest = dictionaries.newest_by_dictionary
    return (silent.silent_targets(sources, reads.equivalents, newest),
            hindering.hindering_targets(sources, newest, reads.errnos))

# SPDX-License-Identifier: GPL-2.0
"""Where the tests' data files are, in the repository and in the test VM.

In the VM, scripts/vm/run.sh copies them to /opt/arbel/share and sets
ARBEL_SHARE; on the host they are found from this file's place.
"""

import os

_REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))

_IN_REPO = {
    'arbelprm_mpt_st.txt': os.path.join(_REPO, 'tests', 'data'),
    'arbel-dbgwin.h': os.path.join(_REPO, 'qemu'),
}


def data_file(name):
    """The path of one of the tests' data files (see _IN_REPO)."""
    share = os.environ.get('ARBEL_SHARE')
    if share and os.path.exists(os.path.join(share, name)):
        return os.path.join(share, name)
    return os.path.join(_IN_REPO[name], name)

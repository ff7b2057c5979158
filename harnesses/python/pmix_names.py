"""PMIx names and values, exactly as seam/pmix.ts (i.e. openpmix master):
what the engine and the protocol half of the template harness both speak.
On the wire they travel as these key strings and integers."""

PMIX_SUCCESS = 0
PMIX_ERR_NO_PERMISSIONS = -23
PMIX_ERR_UNREACH = -25
PMIX_ERR_BAD_PARAM = -27
PMIX_ERR_OUT_OF_RESOURCE = -29
PMIX_ERR_NOT_FOUND = -46
PMIX_ERR_NOT_SUPPORTED = -47

PMIX_ALLOC_NEW = 1
PMIX_ALLOC_EXTEND = 2
PMIX_ALLOC_RELEASE = 3
PMIX_ALLOC_REAQUIRE = 4  # sic: the header's spelling
PMIX_ALLOC_REQ_CANCEL = 5
PMIX_ALLOC_EXTERNAL = 128

PMIX_ALLOC_INHERIT_DEFAULT = 3

PMIX_ALLOC_ID = "pmix.alloc.id"
PMIX_ALLOC_REQ_ID = "pmix.alloc.reqid"
PMIX_ALLOC_NUM_NODES = "pmix.alloc.nnodes"
PMIX_ALLOC_NODE_LIST = "pmix.alloc.nlist"
PMIX_ALLOC_TIME = "pmix.alloc.time"
PMIX_ALLOC_TARGET = "pmix.alloc.tgt"
PMIX_ALLOC_SHARE = "pmix.alloc.share"
PMIX_ALLOC_INHERITANCE = "pmix.alloc.inhrt"
PMIX_SPAWN_TARGET = "pmix.spwn.tgt"
PMIX_SESSION_ID = "pmix.session.id"

PMIX_NSPACE_INVALID = ""  # as a spawn-target entry: the default session
DEFAULT_SESSION = ""  # what observe's availableTo says for the default session

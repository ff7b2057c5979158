/*
 * sched_client: the scheduler as a requester (issue 24 item 2). It is
 * tool_agent (same commands, same JSON lines, same event handler) with one
 * difference: how it connects. It takes the scheduler's identity
 * (PMIX_TOOL_NSPACE / PMIX_TOOL_RANK, default "prrte-test-scheduler" rank 0,
 * the nspace the test scheduler sched_agent.c serves under) and announces
 * itself to the DVM master as the scheduler: the attach carries
 * PMIX_SERVER_SCHEDULER. PRRTE's tool-connection upcall records a tool that
 * says so, and names itself, as prte_pmix_server_globals.scheduler
 * (prrte src/prted/pmix/pmix_server_gen.c:568-569, 609-624), the identity
 * prte_session_is_owned_by admits as the implicit owner of every session
 * (src/runtime/prte_globals.c:1176-1179).
 *
 * Why attach instead of PMIx_tool_init(PMIX_SERVER_SCHEDULER): given that
 * directive, openpmix types the process itself as a scheduler
 * (src/tool/pmix_tool.c:562-565), and a process "hosted by the scheduler" is
 * refused PMIx_Allocation_request with PMIX_ERR_NOT_SUPPORTED before anything
 * is sent (src/common/pmix_alloc.c:324-327). PMIx_tool_attach_to_server passes
 * the directives it does not consume to the server in the connection
 * handshake (src/mca/ptl/base/ptl_base_connect.c:619-624) without retyping
 * this process, so PRRTE hears "scheduler" while this process stays a tool
 * whose requests go to PRRTE.
 *
 * Usage: sched_client <server-uri>   (environment: SCHED_CLIENT_NSPACE,
 * SCHED_CLIENT_RANK, SCHED_CLIENT_PLAIN=1 to attach without
 * PMIX_SERVER_SCHEDULER, a control for experiments)
 */
#include <pmix_tool.h>

static pmix_status_t sched_client_init(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo);
#define PMIx_tool_init sched_client_init
#include "tool_agent.c"
#undef PMIx_tool_init

static pmix_status_t sched_client_init(pmix_proc_t *proc, pmix_info_t info[], size_t ninfo)
{
    const char *uri = NULL;
    for (size_t n = 0; n < ninfo; n++)
        if (PMIX_CHECK_KEY(&info[n], PMIX_SERVER_URI) && PMIX_STRING == info[n].value.type) uri = info[n].value.data.string;
    if (NULL == uri) return PMIX_ERR_BAD_PARAM;
    const char *ns = getenv("SCHED_CLIENT_NSPACE");
    const char *rk = getenv("SCHED_CLIENT_RANK");
    const char *plain = getenv("SCHED_CLIENT_PLAIN");
    pmix_rank_t rank = (NULL != rk) ? (pmix_rank_t) strtoul(rk, NULL, 10) : 0;

    /* who we are, and no server yet */
    pmix_info_t iinfo[3];
    PMIX_INFO_LOAD(&iinfo[0], PMIX_TOOL_NSPACE, (NULL != ns && '\0' != ns[0]) ? ns : "prrte-test-scheduler", PMIX_STRING);
    PMIX_INFO_LOAD(&iinfo[1], PMIX_TOOL_RANK, &rank, PMIX_PROC_RANK);
    PMIX_INFO_LOAD(&iinfo[2], PMIX_TOOL_DO_NOT_CONNECT, NULL, PMIX_BOOL);
    pmix_status_t rc = PMIx_tool_init(proc, iinfo, 3);
    PMIX_INFO_DESTRUCT(&iinfo[0]);
    if (PMIX_SUCCESS != rc) return rc;

    /* the DVM master, told that the scheduler is attaching. Not
     * PMIX_PRIMARY_SERVER: the attach forwards it to PRRTE too, which would
     * then record this process as its own primary server
     * (pmix_server_gen.c:628-636) and so believe a scheduler is reachable
     * for its own client-side calls (pmix_server_allocate.c:160-164). The
     * DVM becomes this tool's server by PMIx_tool_set_server instead, which
     * tells PRRTE nothing. */
    pmix_info_t ainfo[2];
    size_t na = 0;
    PMIX_INFO_LOAD(&ainfo[na], PMIX_SERVER_URI, uri, PMIX_STRING);
    na++;
    if (NULL == plain || 0 != strcmp(plain, "1")) {
        PMIX_INFO_LOAD(&ainfo[na], PMIX_SERVER_SCHEDULER, NULL, PMIX_BOOL);
        na++;
    }
    pmix_proc_t server;
    rc = PMIx_tool_attach_to_server(proc, &server, ainfo, na);
    for (size_t n = 0; n < na; n++) PMIX_INFO_DESTRUCT(&ainfo[n]);
    if (PMIX_SUCCESS != rc) return rc;
    return PMIx_tool_set_server(&server, NULL, 0);
    return rc;
}

/* The bridge's test scheduler (issue 9 item 2): a PMIx server started with
 * PMIX_SERVER_SCHEDULER, so it writes <system tmpdir>/pmix.sched.<hostname>,
 * the rendezvous PRRTE's ras/pmix looks for at its first allocation request
 * (prte_pmix_set_scheduler, PMIX_CONNECT_TO_SCHEDULER). PRRTE then forwards
 * every allocation request to this server's `allocate` upcall, with the
 * requester added (PMIX_REQUESTOR).
 *
 * Policy, set by the bridge on stdin (TAB-separated lines):
 *   pool <name:slots,...>     nodes it may grant, by name or count (the scheduler pool)
 *   startup <name:slots,...>  the DVM's startup nodes: a reservation may name
 *                             them, a count never brings them in
 *   warn <alloc id> [secs]  issue PMIX_ALLOC_TIMEOUT_WARNING for the allocation
 *                           (PMIX_ALLOC_ID, PMIX_TIME_REMAINING when given) to PRRTE,
 *                           which relays it to the allocation's requester
 *   fin                     finalize and exit
 * A NEW / EXTEND is granted the named nodes (PMIX_ALLOC_NODE_LIST) if each is
 * free or in the DVM's default session, else PMIX_ALLOC_NUM_NODES free ones in
 * pool order (fewer if that many are not free and the count is not required;
 * a count never takes a node of the default session), else it is refused with
 * PMIX_ERR_OUT_OF_RESOURCE. A shared NEW (PMIX_ALLOC_SHARE=true, no id) puts
 * its nodes in the default session. A reservation may carve a node out of the
 * default session (RFC: a NEW may name startup nodes; PRRTE forwards every
 * request to the scheduler, so the scheduler must allow it), and a node
 * carved so goes back to the default session, not to the pool, when the
 * reservation releases it. A NEW that is not shared is given an
 * allocation id of this scheduler's (PRRTE prefers a scheduler-assigned
 * PMIX_ALLOC_ID, ras_base_allocate.c create_reservation), so that a RELEASE
 * naming only the id returns that allocation's nodes (an EXTEND that names its
 * allocation only by PMIX_ALLOC_REQ_ID adds nodes this scheduler cannot tie to
 * an id: only a RELEASE naming them gives those back); a RELEASE with a node
 * list returns the named nodes. The answer carries the request's own info back
 * (PRRTE replaces the request's info with the scheduler's answer) with
 * PMIX_ALLOC_NODE_LIST set to the granted nodes as name:slots (how PRRTE learns
 * their size) and the id.
 *
 * Every request and answer is reported on stdout as one JSON line
 * ({"t":"alloc",...}), so the bridge can say what was forwarded.
 *
 * Usage: sched_agent <system-tmpdir>
 */
#include "agent_common.h"
#include <pmix.h>
#include <pmix_server.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES 256
static struct {
    char name[128];
    int slots;
    int granted;        /* held by the DVM: in its default session or reserved */
    int in_default;     /* held by the default session (a shared grant) */
    int from_default;   /* reserved, carved from the default session: returns there */
    int by_name_only;   /* a startup node: granted when named, never for a count */
    char alloc_id[128]; /* the reservation holding it, if this scheduler knows it */
} pool[MAX_NODES];
static int minted = 0;
static int npool = 0;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

static void add_nodes(const char *spec, int by_name_only)
{
    pthread_mutex_lock(&pool_lock);
    char *copy = strdup(spec), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); NULL != tok && npool < MAX_NODES; tok = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(tok, ':');
        pool[npool].slots = colon ? atoi(colon + 1) : 1;
        if (colon) *colon = '\0';
        snprintf(pool[npool].name, sizeof pool[npool].name, "%s", tok);
        pool[npool].granted = pool[npool].in_default = pool[npool].from_default = 0;
        pool[npool].by_name_only = by_name_only;
        npool++;
    }
    free(copy);
    pthread_mutex_unlock(&pool_lock);
}

static int find(const char *name)
{
    for (int i = 0; i < npool; i++)
        if (0 == strcmp(pool[i].name, name)) return i;
    return -1;
}

/* Grant per the policy above; the granted list as name:slots in `out`. */
static pmix_status_t grant(const char *nlist, uint64_t count, int required, int shared, const char *alloc_id, char *out, size_t outlen)
{
    int picked[MAX_NODES], n = 0;
    out[0] = '\0';
    pthread_mutex_lock(&pool_lock);
    if (NULL != nlist) {
        char *copy = strdup(nlist), *save = NULL;
        for (char *tok = strtok_r(copy, ",", &save); NULL != tok; tok = strtok_r(NULL, ",", &save)) {
            char *colon = strchr(tok, ':');
            if (colon) *colon = '\0';
            int i = find(tok);
            /* a shared grant takes only free nodes; a reservation may also carve one from the default session */
            int takeable = i >= 0 && (!pool[i].granted || (!shared && pool[i].in_default));
            if (!takeable || n >= MAX_NODES) { free(copy); pthread_mutex_unlock(&pool_lock); return PMIX_ERR_OUT_OF_RESOURCE; }
            picked[n++] = i;
        }
        free(copy);
    } else {
        for (int i = 0; i < npool && (uint64_t) n < count; i++)
            if (!pool[i].granted && !pool[i].by_name_only) picked[n++] = i;
        if ((uint64_t) n < count && (required || 0 == n)) { pthread_mutex_unlock(&pool_lock); return PMIX_ERR_OUT_OF_RESOURCE; }
    }
    size_t used = 0;
    for (int k = 0; k < n; k++) {
        int i = picked[k];
        pool[i].from_default = !shared && pool[i].in_default;
        pool[i].in_default = shared;
        pool[i].granted = 1;
        snprintf(pool[i].alloc_id, sizeof pool[i].alloc_id, "%s", alloc_id && !shared ? alloc_id : "");
        used += snprintf(out + used, used < outlen ? outlen - used : 0, "%s%s:%d", k ? "," : "", pool[picked[k]].name, pool[picked[k]].slots);
    }
    pthread_mutex_unlock(&pool_lock);
    return PMIX_SUCCESS;
}

/* A released node goes back where it came from: the default session or the pool. */
static void release_node(int i)
{
    pool[i].granted = pool[i].in_default = pool[i].from_default;
    pool[i].from_default = 0;
    pool[i].alloc_id[0] = '\0';
}

/* Every node the allocation holds is released. */
static void give_back_alloc(const char *alloc_id)
{
    pthread_mutex_lock(&pool_lock);
    for (int i = 0; i < npool; i++)
        if (pool[i].granted && !pool[i].in_default && 0 == strcmp(pool[i].alloc_id, alloc_id)) release_node(i);
    pthread_mutex_unlock(&pool_lock);
}

static void give_back(const char *nlist)
{
    pthread_mutex_lock(&pool_lock);
    char *copy = strdup(nlist), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); NULL != tok; tok = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(tok, ':');
        if (colon) *colon = '\0';
        int i = find(tok);
        if (i >= 0 && pool[i].granted) release_node(i);
    }
    free(copy);
    pthread_mutex_unlock(&pool_lock);
}

typedef struct {
    pmix_status_t status;
    pmix_info_t *info;
    size_t ninfo;
    pmix_info_cbfunc_t cbfunc;
    void *cbdata;
} answer_t;

static void release_answer(void *cbdata)
{
    answer_t *a = (answer_t *) cbdata;
    if (NULL != a->info) PMIX_INFO_FREE(a->info, a->ninfo);
    free(a);
}

/* The answer goes back on a thread of its own, never from inside the upcall. */
static void *send_answer(void *arg)
{
    answer_t *a = (answer_t *) arg;
    a->cbfunc(a->status, a->info, a->ninfo, a->cbdata, release_answer, a);
    return NULL;
}

static pmix_status_t sched_allocate(const pmix_proc_t *client, pmix_alloc_directive_t directive,
                                    const pmix_info_t data[], size_t ndata,
                                    pmix_info_cbfunc_t cbfunc, void *cbdata)
{
    const char *nlist = NULL, *alloc_id = NULL;
    uint64_t count = 0;
    int required = 0, shared = 0;
    for (size_t n = 0; n < ndata; n++) {
        if (PMIX_CHECK_KEY(&data[n], PMIX_ALLOC_NODE_LIST) && PMIX_STRING == data[n].value.type) nlist = data[n].value.data.string;
        else if (PMIX_CHECK_KEY(&data[n], PMIX_ALLOC_ID) && PMIX_STRING == data[n].value.type) alloc_id = data[n].value.data.string;
        else if (PMIX_CHECK_KEY(&data[n], PMIX_ALLOC_SHARE)) shared = PMIX_INFO_TRUE(&data[n]);
        else if (PMIX_CHECK_KEY(&data[n], PMIX_ALLOC_NUM_NODES)) {
            PMIx_Value_get_number((pmix_value_t *) &data[n].value, &count, PMIX_UINT64);
            required = PMIX_INFO_IS_REQUIRED(&data[n]);
        }
    }
    char granted[8192] = "", mint[64] = "";
    pmix_status_t status = PMIX_SUCCESS;
    /* a shared NEW goes into the default session: PRRTE gives it no id */
    if (PMIX_ALLOC_NEW == directive && NULL == alloc_id && !shared) {
        pthread_mutex_lock(&pool_lock);
        snprintf(mint, sizeof mint, "sched.%d", ++minted);
        pthread_mutex_unlock(&pool_lock);
        alloc_id = mint;
    }
    if (PMIX_ALLOC_NEW == directive || PMIX_ALLOC_EXTEND == directive) status = grant(nlist, count, required, shared, alloc_id, granted, sizeof granted);
    else if (PMIX_ALLOC_RELEASE == directive && NULL != nlist) give_back(nlist);
    else if (PMIX_ALLOC_RELEASE == directive && NULL != alloc_id) give_back_alloc(alloc_id);

    answer_t *a = calloc(1, sizeof *a);
    a->status = status;
    a->cbfunc = cbfunc;
    a->cbdata = cbdata;
    /* the request's own info back, the node list replaced by the grant */
    PMIX_INFO_CREATE(a->info, ndata + 2);
    size_t k = 0;
    for (size_t n = 0; n < ndata; n++) {
        if (PMIX_CHECK_KEY(&data[n], PMIX_ALLOC_NODE_LIST) || PMIX_CHECK_KEY(&data[n], PMIX_ALLOC_NUM_NODES) || PMIX_CHECK_KEY(&data[n], PMIX_REQUESTOR)) continue;
        PMIX_INFO_XFER(&a->info[k], (pmix_info_t *) &data[n]);
        k++;
    }
    if ('\0' != granted[0]) {
        PMIX_INFO_LOAD(&a->info[k], PMIX_ALLOC_NODE_LIST, granted, PMIX_STRING);
        k++;
    }
    if ('\0' != mint[0] && PMIX_SUCCESS == status) {
        PMIX_INFO_LOAD(&a->info[k], PMIX_ALLOC_ID, mint, PMIX_STRING);
        k++;
    }
    a->ninfo = k;

    agent_lock();
    printf("{\"t\":\"alloc\",\"directive\":%d,\"client\":", (int) directive);
    agent_print_proc(client);
    printf(",\"request\":");
    agent_print_infos(data, ndata);
    printf(",\"status\":%d,\"granted\":", (int) status);
    agent_print_str(granted);
    printf(",\"allocId\":");
    agent_print_str(PMIX_SUCCESS == status && NULL != alloc_id ? alloc_id : "");
    printf("}\n");
    fflush(stdout);
    agent_unlock();

    pthread_t t;
    if (0 != pthread_create(&t, NULL, send_answer, a)) { release_answer(a); return PMIX_ERROR; }
    pthread_detach(t);
    return PMIX_SUCCESS;
}

static int tool_count = 0;
/* PRRTE attaches as a tool: give it its own identity unless it brought one. */
static void sched_tool_connected(pmix_info_t *info, size_t ninfo, pmix_tool_connection_cbfunc_t cbfunc, void *cbdata)
{
    pmix_proc_t proc;
    PMIX_LOAD_PROCID(&proc, "prrte-sched-peer", 0);
    for (size_t n = 0; n < ninfo; n++) {
        if (PMIX_CHECK_KEY(&info[n], PMIX_NSPACE) && PMIX_STRING == info[n].value.type) PMIX_LOAD_NSPACE(proc.nspace, info[n].value.data.string);
        else if (PMIX_CHECK_KEY(&info[n], PMIX_RANK)) proc.rank = info[n].value.data.rank;
    }
    agent_lock();
    printf("{\"t\":\"attached\",\"n\":%d,\"proc\":", ++tool_count);
    agent_print_proc(&proc);
    printf("}\n");
    fflush(stdout);
    agent_unlock();
    if (NULL != cbfunc) cbfunc(PMIX_SUCCESS, &proc, cbdata);
}

static void notified(pmix_status_t status, void *cbdata)
{
    (void) status;
    (void) cbdata;
}

/* The scheduler's own act: the warning goes to PRRTE (the only client this
 * server has), which relays it to the allocation's requester. */
static void warn(const char *alloc_id, const char *secs)
{
    pmix_info_t info[2];
    size_t n = 0;
    PMIX_INFO_LOAD(&info[n], PMIX_ALLOC_ID, alloc_id, PMIX_STRING);
    n++;
    if (NULL != secs) {
        uint32_t remaining = (uint32_t) strtoul(secs, NULL, 10);
        PMIX_INFO_LOAD(&info[n], PMIX_TIME_REMAINING, &remaining, PMIX_UINT32);
        n++;
    }
    pmix_status_t rc = PMIx_Notify_event(PMIX_ALLOC_TIMEOUT_WARNING, NULL, PMIX_RANGE_LOCAL, info, n, notified, NULL);
    agent_lock();
    printf("{\"t\":\"result\",\"op\":\"warn\",\"status\":%d}\n", (int) (PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc));
    fflush(stdout);
    agent_unlock();
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: sched_agent <system-tmpdir>\n"); return 2; }
    pmix_server_module_t module;
    memset(&module, 0, sizeof module);
    module.allocate = sched_allocate;
    module.tool_connected = sched_tool_connected;
    pmix_info_t info[4];
    PMIX_INFO_LOAD(&info[0], PMIX_SERVER_SCHEDULER, NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[1], PMIX_SYSTEM_TMPDIR, argv[1], PMIX_STRING);
    PMIX_INFO_LOAD(&info[2], PMIX_SERVER_TOOL_SUPPORT, NULL, PMIX_BOOL);
    PMIX_INFO_LOAD(&info[3], PMIX_SERVER_NSPACE, "prrte-test-scheduler", PMIX_STRING);
    pmix_status_t rc = PMIx_server_init(&module, info, 4);
    if (PMIX_SUCCESS != rc) {
        printf("{\"t\":\"error\",\"message\":\"PMIx_server_init: %s\",\"status\":%d}\n", PMIx_Error_string(rc), (int) rc);
        fflush(stdout);
        return 1;
    }
    agent_lock();
    printf("{\"t\":\"ready\"}\n");
    fflush(stdout);
    agent_unlock();

    char line[65536];
    while (NULL != fgets(line, sizeof line, stdin)) {
        char *fields[8];
        int nf = agent_split(line, fields, 8);
        if (0 == nf) continue;
        if (0 == strcmp(fields[0], "pool") || 0 == strcmp(fields[0], "startup")) {
            add_nodes(nf >= 2 ? fields[1] : "", 0 == strcmp(fields[0], "startup"));
            agent_lock();
            printf("{\"t\":\"result\",\"op\":\"%s\",\"status\":0}\n", fields[0]);
            fflush(stdout);
            agent_unlock();
        } else if (0 == strcmp(fields[0], "warn") && nf >= 2) {
            warn(fields[1], nf >= 3 ? fields[2] : NULL);
        } else if (0 == strcmp(fields[0], "fin")) break;
        else agent_error("unknown command");
    }
    rc = PMIx_server_finalize();
    agent_lock();
    printf("{\"t\":\"result\",\"op\":\"fin\",\"status\":%d}\n", (int) rc);
    fflush(stdout);
    agent_unlock();
    return 0;
}

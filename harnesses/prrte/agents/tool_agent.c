/*
 * tool_agent: a PMIx tool driven by the PRRTE bridge over stdin/stdout.
 * Compiled with -DJOB_AGENT it is job_agent: a process of a spawned job
 * (PMIx_Init) that takes the same commands over a Unix socket instead.
 *
 * Why a separate program: the suite's "tools" are real PMIx tools connected
 * to a live DVM, so every status the suite grades is one libpmix returned.
 *
 * Input: one command per line, fields separated by TAB (values never contain
 * TAB or newline; the bridge refuses such values before sending them):
 *   alloc  <directive> [<key> <type> <value>]...
 *   spawn  <napps> [<cmd> <np> <hosts-or-"-">]... [<key> <type> <value>]...
 *   ptable <nspace>            PMIx_Query_info(PMIX_QUERY_PROC_TABLE)
 *   qalloc [<key> <type> <value>]...   PMIx_Query_info(PMIX_QUERY_ALLOC_STATUS)
 *   sessions                    PMIX_QUERY_ALLOCATION for the pool and for every PMIX_QUERY_ALLOC_IDS id
 *   notify <code> [<key> <type> <value>]...   PMIx_Notify_event(code) to this
 *                               process's server only (PMIX_RANGE_CUSTOM naming it)
 *   fin                         PMIx_tool_finalize (PMIx_Finalize), then exit
 * <type>: s string, b bool, u8, u32, u64, i32, a (string array, each item
 * preceded by 0x1f); a leading 'R' marks PMIX_INFO_REQD.
 *
 * Output: one JSON object per line ({"t":"ready"|"result"|"event"|"error"}).
 * Events are printed from libpmix's thread, results from the main thread:
 * a mutex keeps lines whole.
 */
#ifdef JOB_AGENT
#include <pmix.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#else
#include <pmix_tool.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <stdbool.h>

#include "agent_common.h"

static pmix_proc_t me;

static void evhandler(size_t id, pmix_status_t status, const pmix_proc_t *source,
                      pmix_info_t info[], size_t ninfo, pmix_info_t results[], size_t nresults,
                      pmix_event_notification_cbfunc_fn_t cbfunc, void *cbdata)
{
    (void) id; (void) results; (void) nresults;
    agent_lock();
    printf("{\"t\":\"event\",\"code\":%d,\"source\":", (int) status);
    agent_print_proc(source);
    printf(",\"info\":");
    agent_print_infos(info, ninfo);
    printf("}\n");
    fflush(stdout);
    agent_unlock();
    if (NULL != cbfunc) {
        cbfunc(PMIX_EVENT_ACTION_COMPLETE, NULL, 0, NULL, NULL, cbdata);
    }
}

static void regcb(pmix_status_t status, size_t ref, void *cbdata)
{
    (void) ref;
    volatile int *done = (volatile int *) cbdata;
    *done = (PMIX_SUCCESS == status) ? 1 : -1;
}

static void do_alloc(char **f, int nf)
{
    if (nf < 2) { agent_error("alloc: missing directive"); return; }
    pmix_alloc_directive_t dir = (pmix_alloc_directive_t) atoi(f[1]);
    pmix_info_t *info = NULL; size_t ninfo = 0;
    if (0 != agent_parse_infos(f + 2, nf - 2, &info, &ninfo)) { agent_error("alloc: bad info"); return; }
    pmix_info_t *res = NULL; size_t nres = 0;
    pmix_status_t rc = PMIx_Allocation_request(dir, info, ninfo, &res, &nres);
    agent_lock();
    printf("{\"t\":\"result\",\"op\":\"alloc\",\"status\":%d,\"info\":", (int) rc);
    agent_print_infos(res, nres);
    printf("}\n"); fflush(stdout);
    agent_unlock();
    if (NULL != info) PMIX_INFO_FREE(info, ninfo);
    if (NULL != res) PMIX_INFO_FREE(res, nres);
}

static void do_spawn(char **f, int nf)
{
    if (nf < 2) { agent_error("spawn: missing napps"); return; }
    int napps = atoi(f[1]);
    if (napps < 1 || nf < 2 + 3 * napps) { agent_error("spawn: bad app list"); return; }
    pmix_app_t *apps;
    PMIX_APP_CREATE(apps, napps);
    for (int i = 0; i < napps; i++) {
        char **a = f + 2 + 3 * i;
        /* a[0]: "<executable> <one argument>" (the job agent and its socket) */
        char *sp = strchr(a[0], ' ');
        apps[i].argv = (char **) calloc(3, sizeof(char *));
        if (NULL != sp) { *sp = '\0'; apps[i].argv[1] = strdup(sp + 1); }
        apps[i].cmd = strdup(a[0]);
        apps[i].argv[0] = strdup(a[0]);
        apps[i].maxprocs = atoi(a[1]);
        if (0 != strcmp(a[2], "-")) {
            PMIX_INFO_CREATE(apps[i].info, 1);
            apps[i].ninfo = 1;
            PMIX_INFO_LOAD(&apps[i].info[0], PMIX_HOST, a[2], PMIX_STRING);
        }
    }
    pmix_info_t *info = NULL; size_t ninfo = 0;
    if (0 != agent_parse_infos(f + 2 + 3 * napps, nf - 2 - 3 * napps, &info, &ninfo)) {
        agent_error("spawn: bad info"); PMIX_APP_FREE(apps, napps); return;
    }
    char nspace[PMIX_MAX_NSLEN + 1] = {0};
    pmix_status_t rc = PMIx_Spawn(info, ninfo, apps, napps, nspace);
    agent_lock();
    printf("{\"t\":\"result\",\"op\":\"spawn\",\"status\":%d,\"nspace\":", (int) rc);
    agent_print_str(nspace);
    printf("}\n"); fflush(stdout);
    agent_unlock();
    if (NULL != info) PMIX_INFO_FREE(info, ninfo);
    PMIX_APP_FREE(apps, napps);
}

/* An event for the server's own handlers only: the custom range names just the
 * server (PMIX_SERVER_NSPACE / PMIX_SERVER_RANK), so no other client of it
 * receives this copy; the server library runs its local handlers for every
 * event a client sends (pmix_server_notify_client_of_event). */
static void do_notify(char **f, int nf)
{
    if (nf < 2) { agent_error("notify: missing code"); return; }
    pmix_info_t *given = NULL; size_t ngiven = 0;
    if (0 != agent_parse_infos(f + 2, nf - 2, &given, &ngiven)) { agent_error("notify: bad info"); return; }
    pmix_value_t *ns = NULL, *rk = NULL;
    pmix_proc_t server;
    pmix_status_t rc = PMIx_Get(&me, PMIX_SERVER_NSPACE, NULL, 0, &ns);
    if (PMIX_SUCCESS == rc) rc = PMIx_Get(&me, PMIX_SERVER_RANK, NULL, 0, &rk);
    if (PMIX_SUCCESS == rc) {
        PMIX_LOAD_PROCID(&server, ns->data.string, rk->data.rank);
        pmix_info_t *info;
        PMIX_INFO_CREATE(info, ngiven + 1);
        for (size_t n = 0; n < ngiven; n++) PMIX_INFO_XFER(&info[n], &given[n]);
        pmix_data_array_t targets = { .type = PMIX_PROC, .size = 1, .array = &server };
        PMIX_INFO_LOAD(&info[ngiven], PMIX_EVENT_CUSTOM_RANGE, &targets, PMIX_DATA_ARRAY);
        rc = PMIx_Notify_event((pmix_status_t) atoi(f[1]), &me, PMIX_RANGE_CUSTOM, info, ngiven + 1, NULL, NULL);
        PMIX_INFO_FREE(info, ngiven + 1);
    }
    agent_lock();
    printf("{\"t\":\"result\",\"op\":\"notify\",\"status\":%d}\n", (int) (PMIX_OPERATION_SUCCEEDED == rc ? PMIX_SUCCESS : rc));
    fflush(stdout);
    agent_unlock();
    if (NULL != ns) PMIX_VALUE_RELEASE(ns);
    if (NULL != rk) PMIX_VALUE_RELEASE(rk);
    if (NULL != given) PMIX_INFO_FREE(given, ngiven);
}

static void do_query(const char *key, char **f, int nf, const char *op)
{
    pmix_query_t *q;
    PMIX_QUERY_CREATE(q, 1);
    q->keys = (char **) calloc(2, sizeof(char *));
    q->keys[0] = strdup(key);
    if (0 != agent_parse_infos(f, nf, &q->qualifiers, &q->nqual)) {
        agent_error("query: bad qualifiers"); PMIX_QUERY_FREE(q, 1); return;
    }
    pmix_info_t *res = NULL; size_t nres = 0;
    pmix_status_t rc = PMIx_Query_info(q, 1, &res, &nres);
    agent_lock();
    printf("{\"t\":\"result\",\"op\":\"%s\",\"status\":%d,\"info\":", op, (int) rc);
    agent_print_infos(res, nres);
    printf(",\"procs\":");
    agent_print_proc_table(res, nres);
    printf("}\n"); fflush(stdout);
    agent_unlock();
    if (NULL != res) PMIX_INFO_FREE(res, nres);
    PMIX_QUERY_FREE(q, 1);
}

#ifdef JOB_AGENT
/* A job's process: PMIx_Init as a client of its daemon, then talk to the
 * bridge over the Unix socket named on the command line (a path-bound
 * socket reaches the bridge across the DVM's network namespace). */
static int connect_bridge(const char *path)
{
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    strncpy(sa.sun_path, path, sizeof sa.sun_path - 1);
    if (fd < 0 || 0 != connect(fd, (struct sockaddr *) &sa, sizeof sa)) return -1;
    dup2(fd, 0);
    dup2(fd, 1);
    close(fd);
    return 0;
}
#endif

/* Print the nodes of one PMIX_QUERY_ALLOCATION answer: [{"name":..,"slots":..}] */
static void print_alloc_nodes(const pmix_info_t *res, size_t nres)
{
    putchar('[');
    bool first = true;
    for (size_t i = 0; i < nres; i++) {
        if (0 != strcmp(res[i].key, PMIX_QUERY_ALLOCATION) || PMIX_DATA_ARRAY != res[i].value.type
            || NULL == res[i].value.data.darray || PMIX_INFO != res[i].value.data.darray->type) continue;
        pmix_info_t *top = (pmix_info_t *) res[i].value.data.darray->array;
        for (size_t j = 0; j < res[i].value.data.darray->size; j++) {
            if (0 != strcmp(top[j].key, PMIX_NODE_INFO) || PMIX_DATA_ARRAY != top[j].value.type
                || NULL == top[j].value.data.darray) continue;
            pmix_info_t *nd = (pmix_info_t *) top[j].value.data.darray->array;
            const char *name = NULL; long slots = -1;
            for (size_t k = 0; k < top[j].value.data.darray->size; k++) {
                if (0 == strcmp(nd[k].key, PMIX_HOSTNAME) && PMIX_STRING == nd[k].value.type) name = nd[k].value.data.string;
                if (0 == strcmp(nd[k].key, PMIX_NUM_SLOTS) && PMIX_UINT32 == nd[k].value.type) slots = (long) nd[k].value.data.uint32;
            }
            if (!first) putchar(',');
            first = false;
            printf("{\"name\":"); agent_print_str(name); printf(",\"slots\":%ld}", slots);
        }
    }
    putchar(']');
}

static pmix_status_t query_one(const char *key, const char *allocid, pmix_info_t **res, size_t *nres)
{
    pmix_query_t *q;
    PMIX_QUERY_CREATE(q, 1);
    q->keys = (char **) calloc(2, sizeof(char *));
    q->keys[0] = strdup(key);
    if (NULL != allocid) {
        PMIX_INFO_CREATE(q->qualifiers, 1);
        q->nqual = 1;
        PMIX_INFO_LOAD(&q->qualifiers[0], PMIX_ALLOC_ID, allocid, PMIX_STRING);
    }
    *res = NULL; *nres = 0;
    pmix_status_t rc = PMIx_Query_info(q, 1, res, nres);
    PMIX_QUERY_FREE(q, 1);
    return rc;
}

/* What a client can learn about sessions through public queries:
 * PMIX_QUERY_ALLOCATION (no qualifier: the DVM's node pool) and, for every
 * id PMIX_QUERY_ALLOC_IDS lists, PMIX_QUERY_ALLOCATION qualified by it. */
static void do_sessions(void)
{
    pmix_info_t *res; size_t nres;
    pmix_status_t rc = query_one(PMIX_QUERY_ALLOCATION, NULL, &res, &nres);
    agent_lock();
    printf("{\"t\":\"result\",\"op\":\"sessions\",\"status\":%d,\"pool\":", (int) rc);
    print_alloc_nodes(res, nres);
    if (NULL != res) PMIX_INFO_FREE(res, nres);
    printf(",\"sessions\":[");
    pmix_info_t *ids; size_t nids;
    pmix_status_t irc = query_one(PMIX_QUERY_ALLOC_IDS, NULL, &ids, &nids);
    bool first = true;
    for (size_t i = 0; PMIX_SUCCESS == irc && i < nids; i++) {
        if (0 != strcmp(ids[i].key, PMIX_QUERY_ALLOC_IDS) || PMIX_DATA_ARRAY != ids[i].value.type
            || NULL == ids[i].value.data.darray || PMIX_INFO != ids[i].value.data.darray->type) continue;
        pmix_info_t *idl = (pmix_info_t *) ids[i].value.data.darray->array;
        for (size_t j = 0; j < ids[i].value.data.darray->size; j++) {
            if (PMIX_STRING != idl[j].value.type) continue;
            const char *id = idl[j].value.data.string;
            pmix_status_t src = query_one(PMIX_QUERY_ALLOCATION, id, &res, &nres);
            if (!first) putchar(',');
            first = false;
            printf("{\"id\":"); agent_print_str(id);
            printf(",\"status\":%d,\"nodes\":", (int) src);
            print_alloc_nodes(res, nres);
            putchar('}');
            if (NULL != res) PMIX_INFO_FREE(res, nres);
        }
    }
    printf("],\"idsStatus\":%d}\n", (int) irc);
    fflush(stdout);
    agent_unlock();
    if (NULL != ids) PMIX_INFO_FREE(ids, nids);
}

int main(int argc, char **argv)
{
#ifdef JOB_AGENT
    if (argc < 2) { fprintf(stderr, "usage: job_agent <bridge-socket>\n"); return 2; }
    pmix_status_t rc = PMIx_Init(&me, NULL, 0);
    if (0 != connect_bridge(argv[1])) { perror("job_agent: connect"); return 3; }
    if (PMIX_SUCCESS != rc) {
        printf("{\"t\":\"error\",\"message\":\"PMIx_Init: %s\",\"status\":%d}\n", PMIx_Error_string(rc), (int) rc);
        fflush(stdout);
        return 1;
    }
#else
    if (argc < 2) { fprintf(stderr, "usage: tool_agent <server-uri>\n"); return 2; }
    pmix_info_t iinfo[2];
    PMIX_INFO_LOAD(&iinfo[0], PMIX_SERVER_URI, argv[1], PMIX_STRING);
    PMIX_INFO_LOAD(&iinfo[1], PMIX_TOOL_DO_NOT_CONNECT, NULL, PMIX_BOOL);
    iinfo[1].value.data.flag = false;
    pmix_status_t rc = PMIx_tool_init(&me, iinfo, 2);
    if (PMIX_SUCCESS != rc) {
        printf("{\"t\":\"error\",\"message\":\"PMIx_tool_init: %s\",\"status\":%d}\n", PMIx_Error_string(rc), (int) rc);
        return 1;
    }
#endif
    volatile int done = 0;
    PMIx_Register_event_handler(NULL, 0, NULL, 0, evhandler, regcb, (void *) &done);
    for (int i = 0; i < 500 && 0 == done; i++) agent_sleep_ms(10);
    agent_lock();
    printf("{\"t\":\"ready\",\"proc\":");
    agent_print_proc(&me);
    printf(",\"handler\":%d}\n", done);
    fflush(stdout);
    agent_unlock();

    char line[65536];
    while (NULL != fgets(line, sizeof line, stdin)) {
        char *fields[1024]; int nf = agent_split(line, fields, 1024);
        if (0 == nf) continue;
        if (0 == strcmp(fields[0], "alloc")) do_alloc(fields, nf);
        else if (0 == strcmp(fields[0], "spawn")) do_spawn(fields, nf);
        else if (0 == strcmp(fields[0], "ptable") && nf >= 2) {
            char *q[3] = { (char *) PMIX_NSPACE, "s", fields[1] };
            do_query(PMIX_QUERY_PROC_TABLE, q, 3, "ptable");
        } else if (0 == strcmp(fields[0], "qalloc")) do_query(PMIX_QUERY_ALLOC_STATUS, fields + 1, nf - 1, "qalloc");
        else if (0 == strcmp(fields[0], "sessions")) do_sessions();
        else if (0 == strcmp(fields[0], "notify")) do_notify(fields, nf);
        else if (0 == strcmp(fields[0], "fin")) break;
        else agent_error("unknown command");
    }
#ifdef JOB_AGENT
    rc = PMIx_Finalize(NULL, 0);
#else
    rc = PMIx_tool_finalize();
#endif
    agent_lock();
    printf("{\"t\":\"result\",\"op\":\"fin\",\"status\":%d}\n", (int) rc);
    fflush(stdout);
    agent_unlock();
    return 0;
}

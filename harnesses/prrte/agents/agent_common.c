#include "agent_common.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <time.h>

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
void agent_lock(void) { pthread_mutex_lock(&out_lock); }
void agent_unlock(void) { pthread_mutex_unlock(&out_lock); }

void agent_sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long) (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

int agent_split(char *line, char **fields, int max)
{
    size_t n = strlen(line);
    while (n > 0 && ('\n' == line[n - 1] || '\r' == line[n - 1])) line[--n] = '\0';
    if (0 == n) return 0;
    int nf = 0;
    char *p = line;
    while (nf < max) {
        fields[nf++] = p;
        char *t = strchr(p, '\t');
        if (NULL == t) break;
        *t = '\0';
        p = t + 1;
    }
    return nf;
}

static int load_one(pmix_info_t *dst, const char *key, const char *type, const char *val)
{
    bool reqd = false;
    if ('R' == type[0]) { reqd = true; type++; }
    if (0 == strcmp(type, "s")) {
        PMIX_INFO_LOAD(dst, key, val, PMIX_STRING);
    } else if (0 == strcmp(type, "b")) {
        bool b = (0 == strcmp(val, "true") || 0 == strcmp(val, "1"));
        PMIX_INFO_LOAD(dst, key, &b, PMIX_BOOL);
    } else if (0 == strcmp(type, "u8")) {
        uint8_t u = (uint8_t) strtoul(val, NULL, 10);
        PMIX_INFO_LOAD(dst, key, &u, PMIX_UINT8);
    } else if (0 == strcmp(type, "u32")) {
        uint32_t u = (uint32_t) strtoul(val, NULL, 10);
        PMIX_INFO_LOAD(dst, key, &u, PMIX_UINT32);
    } else if (0 == strcmp(type, "u64")) {
        uint64_t u = (uint64_t) strtoull(val, NULL, 10);
        PMIX_INFO_LOAD(dst, key, &u, PMIX_UINT64);
    } else if (0 == strcmp(type, "i32")) {
        int32_t i = (int32_t) strtol(val, NULL, 10);
        PMIX_INFO_LOAD(dst, key, &i, PMIX_INT32);
    } else if (0 == strcmp(type, "a")) {
        /* a string array travels as a pmix_data_array_t of PMIX_STRING; every
         * item follows a 0x1f, so "" is the empty array and "\x1f" the array
         * of one empty string (PMIx_Data_array_create(0, ...) returns NULL, so
         * the empty one is built here) */
        size_t n = 0;
        for (const char *c = val; *c; c++) if ('\x1f' == *c) n++;
        if ('\0' != val[0] && '\x1f' != val[0]) return -1;
        pmix_data_array_t empty = { .type = PMIX_STRING, .size = 0, .array = NULL }, *da = &empty;
        if (0 < n) PMIX_DATA_ARRAY_CREATE(da, n, PMIX_STRING);
        char **items = (char **) da->array;
        size_t i = 0;
        for (const char *c = val; '\x1f' == *c && i < n; i++) {
            const char *end = strchr(c + 1, '\x1f');
            size_t len = end ? (size_t) (end - c - 1) : strlen(c + 1);
            items[i] = strndup(c + 1, len);
            c += 1 + len;
        }
        PMIX_INFO_LOAD(dst, key, da, PMIX_DATA_ARRAY);
        if (da != &empty) PMIX_DATA_ARRAY_FREE(da);
    } else {
        return -1;
    }
    if (reqd) PMIX_INFO_REQUIRED(dst);
    return 0;
}

int agent_parse_infos(char **f, int nf, pmix_info_t **info, size_t *ninfo)
{
    *info = NULL; *ninfo = 0;
    if (nf % 3 != 0) return -1;
    if (0 == nf) return 0;
    size_t n = (size_t) nf / 3;
    PMIX_INFO_CREATE(*info, n);
    for (size_t i = 0; i < n; i++) {
        if (0 != load_one(&(*info)[i], f[3 * i], f[3 * i + 1], f[3 * i + 2])) {
            PMIX_INFO_FREE(*info, n); *info = NULL; return -1;
        }
    }
    *ninfo = n;
    return 0;
}

void agent_print_str(const char *s)
{
    putchar('"');
    for (const unsigned char *c = (const unsigned char *) (s ? s : ""); *c; c++) {
        if ('"' == *c || '\\' == *c) printf("\\%c", *c);
        else if (*c < 0x20) printf("\\u%04x", *c);
        else putchar(*c);
    }
    putchar('"');
}

void agent_print_proc(const pmix_proc_t *p)
{
    if (NULL == p) { printf("null"); return; }
    printf("{\"nspace\":"); agent_print_str(p->nspace);
    printf(",\"rank\":%u}", (unsigned) p->rank);
}

void agent_print_value(const pmix_value_t *v)
{
    switch (v->type) {
    case PMIX_STRING: agent_print_str(v->data.string); break;
    case PMIX_BOOL: printf(v->data.flag ? "true" : "false"); break;
    case PMIX_UINT8: printf("%u", (unsigned) v->data.uint8); break;
    case PMIX_UINT16: printf("%u", (unsigned) v->data.uint16); break;
    case PMIX_UINT32: printf("%u", (unsigned) v->data.uint32); break;
    case PMIX_UINT64: printf("%llu", (unsigned long long) v->data.uint64); break;
    case PMIX_SIZE: printf("%zu", v->data.size); break;
    case PMIX_INT: printf("%d", v->data.integer); break;
    case PMIX_INT8: printf("%d", (int) v->data.int8); break;
    case PMIX_INT16: printf("%d", (int) v->data.int16); break;
    case PMIX_INT32: printf("%d", (int) v->data.int32); break;
    case PMIX_INT64: printf("%lld", (long long) v->data.int64); break;
    case PMIX_UINT: printf("%u", v->data.uint); break;
    case PMIX_STATUS: printf("%d", (int) v->data.status); break;
    case PMIX_PROC_RANK: printf("%u", (unsigned) v->data.rank); break;
    case PMIX_PROC:
        /* a proc is reported as its namespace: what the suite's keys carry */
        agent_print_str(NULL == v->data.proc ? "" : v->data.proc->nspace); break;
    case PMIX_DATA_ARRAY:
        if (NULL != v->data.darray && PMIX_STRING == v->data.darray->type) {
            char **s = (char **) v->data.darray->array;
            putchar('[');
            for (size_t i = 0; i < v->data.darray->size; i++) { if (i) putchar(','); agent_print_str(s[i]); }
            putchar(']');
        } else {
            agent_print_str("<array>");
        }
        break;
    case PMIX_UNDEF: agent_print_str("<undef>"); break;
    default: printf("\"<type %d>\"", (int) v->type); break;
    }
}

void agent_print_infos(const pmix_info_t *info, size_t ninfo)
{
    putchar('[');
    bool first = true;
    for (size_t i = 0; i < ninfo; i++) {
        if (!first) putchar(',');
        first = false;
        printf("{\"key\":"); agent_print_str(info[i].key);
        printf(",\"value\":"); agent_print_value(&info[i].value);
        printf(",\"reqd\":%s}", PMIX_INFO_IS_REQUIRED(&info[i]) ? "true" : "false");
    }
    putchar(']');
}

void agent_print_proc_table(const pmix_info_t *info, size_t ninfo)
{
    putchar('[');
    for (size_t i = 0; i < ninfo; i++) {
        if (0 != strcmp(info[i].key, PMIX_QUERY_PROC_TABLE)) continue;
        const pmix_value_t *v = &info[i].value;
        if (PMIX_DATA_ARRAY != v->type || NULL == v->data.darray || PMIX_PROC_INFO != v->data.darray->type) continue;
        pmix_proc_info_t *pi = (pmix_proc_info_t *) v->data.darray->array;
        for (size_t j = 0; j < v->data.darray->size; j++) {
            if (j) putchar(',');
            printf("{\"rank\":%u,\"host\":", (unsigned) pi[j].proc.rank);
            agent_print_str(pi[j].hostname);
            printf(",\"state\":%d,\"exit\":%d,\"pid\":%d}", (int) pi[j].state, pi[j].exit_code, (int) pi[j].pid);
        }
        break;
    }
    putchar(']');
}

void agent_error(const char *msg)
{
    agent_lock();
    printf("{\"t\":\"error\",\"message\":"); agent_print_str(msg); printf("}\n");
    fflush(stdout);
    agent_unlock();
}

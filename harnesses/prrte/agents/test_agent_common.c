/* Unit tests of the agents' parsing and JSON output (no DVM needed). */
#include "agent_common.h"
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

static int failures = 0;
#define CHECK(c, what) do { if (!(c)) { fprintf(stderr, "FAIL: %s\n", what); failures++; } } while (0)

int main(void)
{
    char line[] = "alloc\t1\tpmix.alloc.nlist\ts\tn3,n4\tpmix.alloc.share\tRb\ttrue\n";
    char *f[16];
    int nf = agent_split(line, f, 16);
    CHECK(8 == nf, "split counts TAB-separated fields and drops the newline");
    CHECK(0 == strcmp(f[7], "true"), "last field has no newline");
    pmix_info_t *info; size_t n;
    CHECK(0 == agent_parse_infos(f + 2, 6, &info, &n) && 2 == n, "two info triples parse");
    CHECK(PMIX_STRING == info[0].value.type && 0 == strcmp(info[0].value.data.string, "n3,n4"), "string value");
    CHECK(PMIX_BOOL == info[1].value.type && info[1].value.data.flag, "bool value");
    CHECK(PMIX_INFO_IS_REQUIRED(&info[1]) && !PMIX_INFO_IS_REQUIRED(&info[0]), "R prefix marks PMIX_INFO_REQD");
    PMIX_INFO_FREE(info, n);
    char *bad[] = { "k", "zz", "v" };
    CHECK(0 != agent_parse_infos(bad, 3, &info, &n), "an unknown type is refused");
    CHECK(0 != agent_parse_infos(bad, 2, &info, &n), "an incomplete triple is refused");
    char *arr[] = { "pmix.spwn.tgt", "a", "\x1f" "a1\x1f" "a2" };
    CHECK(0 == agent_parse_infos(arr, 3, &info, &n) && PMIX_DATA_ARRAY == info[0].value.type
          && 2 == info[0].value.data.darray->size, "a string array becomes a data array of two strings");
    PMIX_INFO_FREE(info, n);
    char *none[] = { "pmix.spwn.tgt", "a", "" };
    CHECK(0 == agent_parse_infos(none, 3, &info, &n) && PMIX_DATA_ARRAY == info[0].value.type
          && NULL != info[0].value.data.darray && 0 == info[0].value.data.darray->size, "an empty string array is a data array of size 0, not a crash");
    PMIX_INFO_FREE(info, n);
    char *blank[] = { "pmix.spwn.tgt", "a", "\x1f" };
    CHECK(0 == agent_parse_infos(blank, 3, &info, &n) && 1 == info[0].value.data.darray->size
          && 0 == strcmp(((char **) info[0].value.data.darray->array)[0], ""), "an array of one empty string keeps its one item");
    PMIX_INFO_FREE(info, n);
    char *gap[] = { "pmix.spwn.tgt", "a", "\x1f" "a\x1f\x1f" "b" };
    CHECK(0 == agent_parse_infos(gap, 3, &info, &n) && 3 == info[0].value.data.darray->size
          && 0 == strcmp(((char **) info[0].value.data.darray->array)[1], ""), "an empty item in the middle is kept");
    PMIX_INFO_FREE(info, n);
    char *u[] = { "pmix.alloc.inhrt", "u8", "3", "pmix.alloc.nnodes", "u64", "2" };
    CHECK(0 == agent_parse_infos(u, 6, &info, &n) && 3 == info[0].value.data.uint8 && 2 == info[1].value.data.uint64, "integer widths");
    PMIX_INFO_FREE(info, n);
    /* JSON escaping goes to stdout: capture it in a file */
    FILE *tmp = tmpfile();
    int saved = dup(1);
    fflush(stdout); dup2(fileno(tmp), 1);
    agent_print_str("a\"b\\c\n");
    fflush(stdout); dup2(saved, 1);
    rewind(tmp);
    char buf[64] = {0};
    fread(buf, 1, sizeof buf - 1, tmp);
    CHECK(0 == strcmp(buf, "\"a\\\"b\\\\c\\u000a\""), "strings are JSON-escaped");
    if (failures) { fprintf(stderr, "%d failure(s)\n", failures); return 1; }
    printf("agent_common: all checks passed\n");
    return 0;
}

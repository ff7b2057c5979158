/* Shared helpers of the bridge's PMIx agents: line parsing, pmix_info_t
 * construction from the bridge's typed fields, JSON output. Kept free of any
 * connection state so that test_agent_common.c can unit-test it without a DVM. */
#ifndef AGENT_COMMON_H
#define AGENT_COMMON_H
#include <pmix_common.h>
#include <stddef.h>

void agent_lock(void);
void agent_unlock(void);
void agent_sleep_ms(int ms);
/* split a line on TAB in place (the trailing newline is dropped) */
int agent_split(char *line, char **fields, int max);
/* triples key,type,value -> pmix_info_t array; 0 on success */
int agent_parse_infos(char **f, int nf, pmix_info_t **info, size_t *ninfo);
void agent_print_str(const char *s);
void agent_print_proc(const pmix_proc_t *p);
void agent_print_value(const pmix_value_t *v);
void agent_print_infos(const pmix_info_t *info, size_t ninfo);
/* prints the PMIX_QUERY_PROC_TABLE entry of a query result as a JSON array */
void agent_print_proc_table(const pmix_info_t *info, size_t ninfo);
void agent_error(const char *msg);
#endif

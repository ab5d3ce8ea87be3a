/* store.h - an in-memory item store. */
#ifndef STORE_H
#define STORE_H

#include <stddef.h>
#include "item.h"

#define STORE_MAX_ITEMS 256
#define STORE_ITEM_AT(s, i) ((s)->items[(i)])

typedef unsigned long store_id;
typedef int (*item_visitor)(const struct item *it, void *ctx);

enum store_status {
	STORE_OK,
	STORE_FULL,
	STORE_MISSING = -1,
};

struct store {
	store_id id;
	size_t count;
	struct item *items[STORE_MAX_ITEMS];
	const char *name;
	void (*on_change)(struct store *s);
};

union store_key {
	store_id id;
	char code[16];
};

typedef struct {
	double total;
	size_t lines;
} store_report;

extern int store_debug;

struct store *store_open(const char *name);
enum store_status store_add(struct store *s, struct item *it);
int store_each(struct store *s, item_visitor fn, void *ctx);
store_report store_summarize(const struct store *s);
void store_close(struct store *s);

#endif /* STORE_H */

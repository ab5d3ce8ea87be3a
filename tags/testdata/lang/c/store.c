#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"

#define LOG(fmt, ...) fprintf(stderr, fmt, __VA_ARGS__)

int store_debug = 0;
static const char *default_name = "main", *spare_name;
static struct store *last_opened;
static const size_t grow_step = 16;

static int sum_price(const struct item *it, void *ctx)
{
	store_report *r = ctx;
	r->total += item_price(it);
	r->lines++;
	return 0;
}

struct store *store_open(const char *name)
{
	struct store *s = calloc(1, sizeof(struct store));
	if (s == NULL)
		return NULL;
	s->name = strdup(name ? name : default_name);
	last_opened = s;
	return s;
}

enum store_status store_add(struct store *s, struct item *it)
{
	if (s->count >= STORE_MAX_ITEMS)
		return STORE_FULL;
	s->items[s->count++] = it;
	if (s->on_change)
		s->on_change(s);
	if (store_debug)
		LOG("added %s\n", item_name(it));
	return STORE_OK;
}

int store_each(struct store *s, item_visitor fn, void *ctx)
{
	for (size_t i = 0; i < s->count; i++) {
		int rc = fn(STORE_ITEM_AT(s, i), ctx);
		if (rc != 0)
			return rc;
	}
	return 0;
}

store_report store_summarize(const struct store *s)
{
	store_report r = {0};
	store_each((struct store *)s, sum_price, &r);
	return r;
}

void store_close(struct store *s)
{
	free((void *)s->name);
	free(s);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON reader, enough for the output of iproute2's `rdma -j`:
 * objects, arrays, strings (escapes kept simple), numbers (integers kept
 * exact as 64-bit, also in their text form), true/false/null.
 * json_parse() returns a tree or NULL; json_free() releases it.
 */
#ifndef ARBEL_TEST_JSON_H
#define ARBEL_TEST_JSON_H

#include <ctype.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum json_type { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct json {
	enum json_type type;
	char *key;		/* member name inside an object */
	char *str;		/* J_STR text, J_NUM text */
	uint64_t u;		/* J_NUM (unsigned integers), J_BOOL */
	struct json *child;	/* J_ARR / J_OBJ: first element */
	struct json *next;	/* next sibling */
	int count;		/* J_ARR / J_OBJ: number of elements */
};

static struct json *json_value(const char **p);

static void json_ws(const char **p)
{
	while (**p && isspace((unsigned char)**p))
		(*p)++;
}

static char *json_string(const char **p)
{
	const char *s = *p + 1;
	size_t n = 0, cap = 16;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	while (*s && *s != '"') {
		char c = *s++;

		if (c == '\\' && *s) {
			c = *s++;
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u':	/* keep ASCII, replace the rest */
				c = '?';
				if (strlen(s) >= 4) {
					char hex[5] = { s[0], s[1], s[2], s[3], 0 };
					long v = strtol(hex, NULL, 16);

					c = v > 0 && v < 128 ? (char)v : '?';
					s += 4;
				}
				break;
			default: break;	/* \" \\ \/ */
			}
		}
		if (n + 2 > cap) {
			char *bigger = realloc(out, cap *= 2);

			if (!bigger) {
				free(out);
				return NULL;
			}
			out = bigger;
		}
		out[n++] = c;
	}
	out[n] = 0;
	if (*s != '"') {
		free(out);
		return NULL;
	}
	*p = s + 1;
	return out;
}

static void json_free(struct json *j)
{
	while (j) {
		struct json *next = j->next;

		json_free(j->child);
		free(j->key);
		free(j->str);
		free(j);
		j = next;
	}
}

static struct json *json_list(const char **p, char close, int named)
{
	struct json *head = NULL, **tail = &head, *node = calloc(1, sizeof(*node));

	if (!node)
		return NULL;
	node->type = close == '}' ? J_OBJ : J_ARR;
	(*p)++;
	json_ws(p);
	if (**p == close) {
		(*p)++;
		return node;
	}
	for (;;) {
		char *key = NULL;
		struct json *v;

		json_ws(p);
		if (named) {
			if (**p != '"' || !(key = json_string(p)))
				goto bad;
			json_ws(p);
			if (**p != ':') {
				free(key);
				goto bad;
			}
			(*p)++;
		}
		v = json_value(p);
		if (!v) {
			free(key);
			goto bad;
		}
		v->key = key;
		*tail = v;
		tail = &v->next;
		node->count++;
		json_ws(p);
		if (**p == ',') {
			(*p)++;
			continue;
		}
		if (**p == close) {
			(*p)++;
			node->child = head;
			return node;
		}
		goto bad;
	}
bad:
	node->child = head;
	json_free(node);
	return NULL;
}

static struct json *json_value(const char **p)
{
	struct json *j;

	json_ws(p);
	if (**p == '{')
		return json_list(p, '}', 1);
	if (**p == '[')
		return json_list(p, ']', 0);
	j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	if (**p == '"') {
		j->type = J_STR;
		j->str = json_string(p);
		if (!j->str) {
			free(j);
			return NULL;
		}
		return j;
	}
	if (!strncmp(*p, "true", 4) || !strncmp(*p, "false", 5)) {
		j->type = J_BOOL;
		j->u = **p == 't';
		*p += j->u ? 4 : 5;
		return j;
	}
	if (!strncmp(*p, "null", 4)) {
		j->type = J_NULL;
		*p += 4;
		return j;
	}
	if (**p == '-' || isdigit((unsigned char)**p)) {
		const char *s = *p;

		while (**p && strchr("+-0123456789.eE", **p))
			(*p)++;
		j->type = J_NUM;
		j->str = strndup(s, (size_t)(*p - s));
		j->u = strtoull(s, NULL, 10);
		return j;
	}
	free(j);
	return NULL;
}

/* Parse a whole document; NULL on a syntax error. */
static struct json *json_parse(const char *text)
{
	const char *p = text;
	struct json *j = json_value(&p);

	if (!j)
		return NULL;
	json_ws(&p);
	if (*p) {
		json_free(j);
		return NULL;
	}
	return j;
}

static struct json *json_get(const struct json *obj, const char *key)
{
	struct json *c;

	if (!obj || obj->type != J_OBJ)
		return NULL;
	for (c = obj->child; c; c = c->next)
		if (c->key && !strcmp(c->key, key))
			return c;
	return NULL;
}

/* a driver attribute: iproute2 prints them as "drv_NAME" */
static struct json *json_get_drv(const struct json *obj, const char *name)
{
	char key[128];
	struct json *j = json_get(obj, name);

	if (j)
		return j;
	snprintf(key, sizeof(key), "drv_%s", name);
	return json_get(obj, key);
}

/*
 * A number, or a string holding one: `rdma -j` prints keys as hex strings
 * (with or without 0x), counters as numbers.  hex selects the base for
 * strings.  Returns 0 if absent or not a number.
 */
static int json_u64(const struct json *j, int hex, uint64_t *out)
{
	char *end;

	if (!j)
		return 0;
	if (j->type == J_NUM) {
		*out = j->u;
		return 1;
	}
	if (j->type == J_STR && j->str[0]) {
		*out = strtoull(j->str, &end, hex ? 16 : 0);
		return *end == 0;
	}
	return 0;
}

#endif

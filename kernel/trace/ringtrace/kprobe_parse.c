// SPDX-License-Identifier: GPL-2.0
/*
 * The kprobe_events line parser (Documentation/trace/ringtrace-kprobes.rst):
 *
 *   p[:[GROUP/]EVENT] SYMBOL[+offs]|MEMADDR [[NAME=]FETCHARG[:TYPE]]...
 *   r[MAXACTIVE][:[GROUP/]EVENT] SYMBOL[+0] [[NAME=]FETCHARG[:TYPE]]...
 *   -:[GROUP/]EVENT
 *
 * It only reads the text: whether the symbol exists or can be probed is
 * for the caller to find out.  Every fault is reported with its position
 * so that error_log can put a caret under it.
 */

#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/ptrace.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kprobe_parse.h"

/* Highest N of aN, $argN (which counts from 1), sN and $stackN. */
#define RTK_MAX_INDEX		1024
/* The most kretprobe instances a MAXACTIVE may ask for. */
#define RTK_MAX_MAXACTIVE	4096

struct rtk_parser {
	const char		*line;
	struct rtk_error	*err;
	struct rtk_def		*def;
	bool			placed;
};

static int rtk_fail(struct rtk_parser *p, const char *at, const char *msg)
{
	p->err->pos = at - p->line;
	p->err->msg = msg;
	return -EINVAL;
}

/*
 * An error at the place upstream's error_log shows it, for an upstream
 * probe's line (options/upstream_kprobes), so that upstream's scripts and
 * tests find the caret where they look: ringtrace points at the faulty
 * character, upstream at the start of the probe point or of the innermost
 * fetch-arg that is wrong.  The innermost place wins: outer fetch-args
 * leave an error that is @placed alone.
 */
static int rtk_upstream_place(struct rtk_parser *p, const char *at, int err)
{
	if (err == -EINVAL && p->def->upstream && !p->placed)
		p->err->pos = at - p->line;
	p->placed = true;
	return err;
}

/* An error upstream places where ringtrace does, inner ones left alone. */
static int rtk_fail_placed(struct rtk_parser *p, const char *at,
			   const char *msg)
{
	rtk_fail(p, at, msg);
	p->placed = true;
	return -EINVAL;
}

/* A line over a limit: the same as rtk_fail(), but -E2BIG. */
static int rtk_fail_limit(struct rtk_parser *p, const char *at,
			  const char *msg)
{
	rtk_fail(p, at, msg);
	return -E2BIG;
}

static bool rtk_is_name(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= RTK_MAX_NAME || !(isalpha(s[0]) || s[0] == '_'))
		return false;
	for (i = 1; i < len; i++)
		if (!isalnum(s[i]) && s[i] != '_')
			return false;
	return true;
}

/* A number of @len bytes at @s, in decimal or 0x hex. */
static int rtk_number(const char *s, size_t len, unsigned long *value)
{
	char buf[24];

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return kstrtoul(buf, 0, value);
}

/* "[GROUP/]EVENT" of @len bytes at @s. */
static int rtk_parse_event_name(struct rtk_parser *p, const char *s,
				size_t len)
{
	const char *slash = memchr(s, '/', len);
	const char *event = slash ? slash + 1 : s;
	size_t event_len = s + len - event;

	if (slash) {
		if (!rtk_is_name(s, slash - s))
			return rtk_fail(p, s, "bad group name");
		p->def->group = kstrndup(s, slash - s, GFP_KERNEL);
	}
	if (slash && !p->def->group)
		return -ENOMEM;
	/*
	 * "GROUP/" alone: a probe's event is named after its point; a
	 * removal removes every event of the group, as upstream's.
	 */
	if (slash && !event_len)
		return 0;
	if (!rtk_is_name(event, event_len))
		return rtk_fail(p, event, "bad event name");
	p->def->event = kstrndup(event, event_len, GFP_KERNEL);
	if (!p->def->event)
		return -ENOMEM;
	return 0;
}

/* The first word: p, r, rN or -, then :[GROUP/]EVENT. */
static int rtk_parse_head(struct rtk_parser *p, const char *s, size_t len)
{
	const char *end = s + len, *c = s + 1;
	unsigned long maxactive;
	const char *digits;

	switch (*s) {
	case 'p':
		p->def->kind = RTK_DEF_PROBE;
		break;
	case 'r':
		p->def->kind = RTK_DEF_RETPROBE;
		break;
	case '-':
		p->def->kind = RTK_DEF_DELETE;
		break;
	default:
		return rtk_fail(p, s, "expected p, r or -:EVENT");
	}
	digits = c;
	while (c < end && isdigit(*c))
		c++;
	if (c > digits) {
		if (p->def->kind != RTK_DEF_RETPROBE)
			return rtk_fail(p, digits,
					"only return probes take MAXACTIVE");
		if (rtk_number(digits, c - digits, &maxactive) || !maxactive ||
		    maxactive > RTK_MAX_MAXACTIVE)
			return rtk_fail(p, digits, "MAXACTIVE must be 1 to 4096");
		if (c < end && *c != ':')
			return rtk_fail(p, digits, "bad MAXACTIVE");
		p->def->maxactive = maxactive;
	}
	if (c == end) {
		if (p->def->kind == RTK_DEF_DELETE)
			return rtk_fail(p, c, "expected :EVENT after -");
		return 0;
	}
	if (*c != ':')
		return rtk_fail(p, c, "expected : and an event name");
	c++;
	if (c == end)
		return rtk_fail(p, c, "expected an event name");
	return rtk_parse_event_name(p, c, end - c);
}

/*
 * SYMBOL[+offs] or MEMADDR; SYMBOL[+0]%return makes a p probe a return
 * probe, as upstream's.
 */
static int rtk_parse_point(struct rtk_parser *p, const char *s, size_t len)
{
	const char *end = s + len, *plus, *colon, *suffix = memchr(s, '%', len);
	static const char ret_suffix[] = "%return";
	struct rtk_def *def = p->def;
	char name[RTK_MAX_NAME + 32];
	size_t i;

	if (suffix) {
		if (end - suffix != sizeof(ret_suffix) - 1 ||
		    memcmp(suffix, ret_suffix, end - suffix))
			return rtk_fail_placed(p, suffix,
					       "the one suffix is %return");
		if (isdigit(*s))
			return rtk_fail(p, s, "%return follows a symbol: r ADDR for an address");
		def->kind = RTK_DEF_RETPROBE;
		end = suffix;
		len = end - s;
	}
	if (isdigit(*s)) {
		/* r ADDR: kprobes checks that ADDR is a function's entry. */
		if (rtk_number(s, len, &def->addr) || !def->addr)
			return rtk_fail(p, s, "bad address");
		snprintf(name, sizeof(name), "%c_0x%lx",
			 def->kind == RTK_DEF_RETPROBE ? 'r' : 'p', def->addr);
	} else {
		plus = memchr(s, '+', len);
		colon = memchr(s, ':', (plus ? plus : end) - s);
		/* MOD:SYM, as upstream's: a module's symbol, maybe pending. */
		if (colon && (colon == s || colon + 1 == (plus ?: end)))
			return rtk_fail(p, colon, "expected MODULE:SYMBOL");
		for (i = 0; i < (plus ? plus : end) - s; i++)
			if (!isalnum(s[i]) && s[i] != '_' &&
			    (s[i] != '.' || s + i < colon) && s + i != colon)
				return rtk_fail(p, s + i, "bad symbol");
		if (!i || isdigit(*s) || (colon && isdigit(colon[1])))
			return rtk_fail(p, s, "bad symbol");
		if (i >= KSYM_NAME_LEN)
			return rtk_fail(p, s, "symbol too long");
		if (plus && rtk_number(plus + 1, end - plus - 1, &def->offset))
			return rtk_fail(p, plus + 1, "bad offset");
		if (def->offset && def->kind == RTK_DEF_RETPROBE)
			return rtk_fail(p, plus, "return probes go on the symbol itself (+0)");
		def->symbol = kstrndup(s, i, GFP_KERNEL);
		if (!def->symbol)
			return -ENOMEM;
		snprintf(name, sizeof(name), "%c_%.*s_%lu",
			 def->kind == RTK_DEF_RETPROBE ? 'r' : 'p',
			 RTK_MAX_NAME - 12, def->symbol, def->offset);
		/* Symbols like foo.isra.0, MOD:SYM: names have neither. */
		strreplace(name, '.', '_');
		strreplace(name, ':', '_');
	}
	if (!def->event) {
		def->event = kstrdup(name, GFP_KERNEL);
		if (!def->event)
			return -ENOMEM;
	}
	return 0;
}

static void rtk_free_fetch(struct rtk_fetch *f)
{
	while (f) {
		struct rtk_fetch *inner = f->inner;

		kfree(f->symbol);
		kfree(f);
		f = inner;
	}
}

/* An index N of @len bytes at @s (aN, sN, $argN, $stackN). */
static int rtk_index(const char *s, size_t len, long *value)
{
	unsigned long n;
	size_t i;

	for (i = 0; i < len; i++)
		if (!isdigit(s[i]))
			return -EINVAL;
	if (rtk_number(s, len, &n) || n > RTK_MAX_INDEX)
		return -EINVAL;
	*value = n;
	return 0;
}

static struct rtk_fetch *rtk_parse_fetch(struct rtk_parser *p, const char *s,
					 size_t len, unsigned int depth);

/*
 * The fetch operations upstream would need for @f: one for its source, two
 * for @ADDR (the address, then the read), three for @SYM, one per
 * dereference.  Upstream has room for 15.
 */
#define RTK_UPSTREAM_MAX_OPS	15
/* Upstream's longest argument name and fetch-arg text. */
#define RTK_UPSTREAM_NAME	32
#define RTK_UPSTREAM_ARG	63

static unsigned int rtk_upstream_ops(const struct rtk_fetch *f)
{
	unsigned int ops = 0;

	for (; f; f = f->inner) {
		if (f->kind == RTK_FETCH_MEM)
			ops += 2;
		else if (f->kind == RTK_FETCH_SYMBOL)
			ops += 3;
		else
			ops++;
	}
	return ops;
}

/* +|-offs(FETCHARG), or +|-uoffs(FETCHARG) reading user memory */
static int rtk_parse_deref(struct rtk_parser *p, struct rtk_fetch *f,
			   const char *s, size_t len, unsigned int depth)
{
	const char *open = memchr(s, '(', len), *end = s + len;
	const char *digits = s + 1;
	unsigned long offs;

	if (depth >= RTK_MAX_DEREF)
		return rtk_fail(p, s, "dereference nested too deeply");
	if (!open)
		return rtk_fail(p, end, "expected +|-offs(FETCHARG)");
	/* Upstream: the end of what lacks its ")". */
	if (end[-1] != ')')
		return rtk_upstream_place(p, end,
					  rtk_fail(p, open, "expected +|-offs(FETCHARG)"));
	f->kind = RTK_FETCH_DEREF;
	if (*digits == 'u') {
		f->kind = RTK_FETCH_UDEREF;
		digits++;
	}
	if (rtk_number(digits, open - digits, &offs) || offs > LONG_MAX)
		return rtk_fail(p, digits, "bad offset");
	f->value = *s == '-' ? -(long)offs : (long)offs;
	if (open + 1 == end - 1)
		return rtk_fail(p, open + 1, "expected a fetch-arg in ( )");
	f->inner = rtk_parse_fetch(p, open + 1, end - open - 2, depth + 1);
	if (IS_ERR(f->inner)) {
		int err = PTR_ERR(f->inner);

		f->inner = NULL;
		return err;
	}
	/* Text, not an address: there is nothing to dereference. */
	if (f->inner->kind == RTK_FETCH_COMM ||
	    f->inner->kind == RTK_FETCH_IMM_STRING)
		return rtk_fail_placed(p, open + 1, "$comm and \\\"str\" cannot be dereferenced");
	/* Upstream's limit: 15 fetch operations, at the inner fetch-arg. */
	if (p->def->upstream && rtk_upstream_ops(f) > RTK_UPSTREAM_MAX_OPS)
		return rtk_fail_placed(p, open + 1, "dereference nested too deeply");
	return 0;
}

/* \IMM (a number, signed or not) or \"text" */
static int rtk_parse_immediate(struct rtk_parser *p, struct rtk_fetch *f,
			       const char *s, size_t len)
{
	const char *end = s + len;
	unsigned long v;

	s++;
	if (s < end && *s == '"') {
		if (end - s < 2 || end[-1] != '"')
			return rtk_fail_placed(p, end, "expected the closing \" of \\\"text\"");
		f->kind = RTK_FETCH_IMM_STRING;
		f->symbol = kstrndup(s + 1, end - s - 2, GFP_KERNEL);
		return f->symbol ? 0 : -ENOMEM;
	}
	f->kind = RTK_FETCH_IMM;
	if (s < end && (*s == '-' || *s == '+')) {
		if (rtk_number(s + 1, end - s - 1, &v) || v > LONG_MAX)
			return rtk_fail_placed(p, s, "bad immediate value");
		f->value = *s == '-' ? -(long)v : (long)v;
		return 0;
	}
	if (s == end || !isdigit(*s) || rtk_number(s, end - s, &v))
		return rtk_fail_placed(p, s, "bad immediate value");
	f->value = v;
	return 0;
}

/* @SYM[+|-offs] or @ADDR */
static int rtk_parse_mem(struct rtk_parser *p, struct rtk_fetch *f,
			 const char *s, size_t len)
{
	const char *end = s + len, *sign;
	unsigned long v;
	size_t i;

	s++;
	if (s == end)
		return rtk_fail(p, s, "expected an address or symbol after @");
	if (isdigit(*s)) {
		if (rtk_number(s, end - s, &v))
			return rtk_fail(p, s, "bad address");
		f->kind = RTK_FETCH_MEM;
		f->value = v;
		return 0;
	}
	for (sign = s; sign < end && *sign != '+' && *sign != '-'; sign++)
		;
	for (i = 0; i < sign - s; i++)
		if (!isalnum(s[i]) && s[i] != '_' && s[i] != '.')
			return rtk_fail(p, s + i, "bad symbol");
	f->kind = RTK_FETCH_SYMBOL;
	if (sign < end) {
		if (rtk_number(sign + 1, end - sign - 1, &v) || v > LONG_MAX)
			return rtk_fail(p, sign + 1, "bad offset");
		f->value = *sign == '-' ? -(long)v : (long)v;
	}
	f->symbol = kstrndup(s, sign - s, GFP_KERNEL);
	return f->symbol ? 0 : -ENOMEM;
}

static bool rtk_word(const char *s, size_t len, const char *word)
{
	return len == strlen(word) && !memcmp(s, word, len);
}

static struct rtk_fetch *rtk_parse_fetch(struct rtk_parser *p, const char *s,
					 size_t len, unsigned int depth)
{
	bool ret_probe = p->def->kind == RTK_DEF_RETPROBE;
	struct rtk_fetch *f;
	char reg[16];
	int err = 0;
	int offset;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return ERR_PTR(-ENOMEM);
	if (*s == '%') {
		if (len < 2 || len - 1 >= sizeof(reg)) {
			err = rtk_fail(p, s + 1, "bad register");
		} else {
			memcpy(reg, s + 1, len - 1);
			reg[len - 1] = '\0';
			offset = regs_query_register_offset(reg);
			if (offset < 0)
				err = rtk_fail(p, s + 1, "bad register");
			f->kind = RTK_FETCH_REG;
			f->value = offset;
		}
	} else if (*s == '@') {
		err = rtk_parse_mem(p, f, s, len);
	} else if (*s == '+' || *s == '-') {
		err = rtk_parse_deref(p, f, s, len, depth);
	} else if (*s == '\\') {
		err = rtk_parse_immediate(p, f, s, len);
	} else if (rtk_word(s, len, "sa") || rtk_word(s, len, "$stack")) {
		f->kind = RTK_FETCH_STACK_ADDR;
	} else if (rtk_word(s, len, "rv") || rtk_word(s, len, "$retval") ||
		   rtk_word(s, len, "ra")) {
		f->kind = *s == 'r' && s[1] == 'a' ? RTK_FETCH_RETADDR :
						     RTK_FETCH_RETVAL;
		if (!ret_probe)
			err = rtk_fail(p, s, "only return probes can fetch rv and ra");
	} else if (rtk_word(s, len, "$comm")) {
		f->kind = RTK_FETCH_COMM;
	} else if (*s == 's' && len > 1) {
		f->kind = RTK_FETCH_STACK;
		if (rtk_index(s + 1, len - 1, &f->value))
			err = rtk_fail(p, s + 1, "bad stack index");
	} else if (*s == 'a' && len > 1) {
		f->kind = RTK_FETCH_ARG;
		if (rtk_index(s + 1, len - 1, &f->value))
			err = rtk_fail(p, s + 1, "bad argument index");
	} else if (len > 6 && !memcmp(s, "$stack", 6)) {
		f->kind = RTK_FETCH_STACK;
		if (rtk_index(s + 6, len - 6, &f->value))
			err = rtk_fail(p, s + 6, "bad stack index");
	} else if (len > 4 && !memcmp(s, "$arg", 4)) {
		/* Upstream's spelling counts from 1: $arg1 is a0. */
		f->kind = RTK_FETCH_ARG;
		if (rtk_index(s + 4, len - 4, &f->value) || !f->value)
			err = rtk_fail(p, s + 4,
				       "bad argument index ($argN counts from 1)");
		else
			f->value--;
	} else {
		err = rtk_fail(p, s, "unknown fetch-arg");
	}
	if (err) {
		rtk_free_fetch(f);
		return ERR_PTR(rtk_upstream_place(p, s, err));
	}
	return f;
}

static const char * const rtk_type_names[] = {
	[RTK_TYPE_U8] = "u8", [RTK_TYPE_U16] = "u16", [RTK_TYPE_U32] = "u32",
	[RTK_TYPE_U64] = "u64", [RTK_TYPE_S8] = "s8", [RTK_TYPE_S16] = "s16",
	[RTK_TYPE_S32] = "s32", [RTK_TYPE_S64] = "s64", [RTK_TYPE_X8] = "x8",
	[RTK_TYPE_X16] = "x16", [RTK_TYPE_X32] = "x32", [RTK_TYPE_X64] = "x64",
	[RTK_TYPE_SYMBOL] = "symbol", [RTK_TYPE_STRING] = "string",
	[RTK_TYPE_USTRING] = "ustring", [RTK_TYPE_SYMSTR] = "symstr",
};

/* A number of @len bytes at @s, stepping @s past it; false if none. */
static bool rtk_take_number(const char **s, const char *end,
			    unsigned long *value)
{
	const char *c = *s;

	while (c < end && isalnum(*c))
		c++;
	if (rtk_number(*s, c - *s, value))
		return false;
	*s = c;
	return true;
}

/*
 * b<W>@<O>/<S>: W bits at bit O of an S-bit value (8, 16, 32 or 64),
 * recorded as a uS, as upstream's.
 */
static int rtk_parse_bitfield(struct rtk_parser *p, struct rtk_arg *arg,
			      const char *s, size_t len)
{
	const char *c = s + 1, *end = s + len;
	unsigned long width, offset, size;

	if (!rtk_take_number(&c, end, &width) || c == end || *c++ != '@' ||
	    !rtk_take_number(&c, end, &offset) || c == end || *c++ != '/' ||
	    !rtk_take_number(&c, end, &size) || c != end)
		return rtk_fail(p, s, "bad bitfield: b<bits>@<offset>/<size>");
	switch (size) {
	case 8:
		arg->type = RTK_TYPE_U8;
		break;
	case 16:
		arg->type = RTK_TYPE_U16;
		break;
	case 32:
		arg->type = RTK_TYPE_U32;
		break;
	case 64:
		arg->type = RTK_TYPE_U64;
		break;
	default:
		return rtk_fail(p, s, "bad bitfield: the size is 8, 16, 32 or 64");
	}
	/* Compared one by one: a huge width + offset must not wrap. */
	if (!width || width > size || offset >= size || offset > size - width)
		return rtk_fail(p, s, "bad bitfield: its bits must fit the size");
	arg->bit_width = width;
	arg->bit_offset = offset;
	return 0;
}

/* TYPE or TYPE[N] */
static int rtk_parse_type(struct rtk_parser *p, struct rtk_arg *arg,
			  const char *s, size_t len)
{
	const char *open = memchr(s, '[', len), *end = s + len, *close;
	unsigned long count;
	unsigned int i;

	if (open) {
		close = memchr(open, ']', end - open);
		if (close && close + 1 < end)
			return rtk_fail(p, close + 1, "nothing may follow TYPE[N]");
		if (!close)
			return rtk_fail(p, end, "expected ] to end TYPE[N]");
		if (rtk_number(open + 1, end - open - 2, &count) || !count)
			return rtk_fail(p, open + 1, "bad array length");
		if (count > RTK_MAX_ARRAY)
			return rtk_fail(p, open + 1, "arrays have 64 elements at most");
		arg->count = count;
		len = open - s;
	}
	if (len > 1 && *s == 'b' && isdigit(s[1]))
		return rtk_parse_bitfield(p, arg, s, len);
	for (i = RTK_TYPE_U8; i < ARRAY_SIZE(rtk_type_names); i++) {
		if (rtk_word(s, len, rtk_type_names[i])) {
			arg->type = i;
			return 0;
		}
	}
	return rtk_fail(p, s, "unknown type");
}

/*
 * Whether @arg's type suits its fetch-arg, written at @fetch; @type is
 * where the type was written, or NULL.  Text ($comm, \"text") is a string and nothing else;
 * arrays are read from memory.
 */
static int rtk_check_type(struct rtk_parser *p, struct rtk_arg *arg,
			  const char *fetch, const char *type)
{
	enum rtk_fetch_kind kind = arg->fetch->kind;
	const char *at = type ?: fetch;

	if (kind == RTK_FETCH_COMM || kind == RTK_FETCH_IMM_STRING) {
		if (type && (arg->type != RTK_TYPE_STRING || arg->count))
			return rtk_fail(p, type, "$comm and \\\"text\" are of type string");
		arg->type = RTK_TYPE_STRING;
		return 0;
	}
	/*
	 * A register or argument holding a string's address: ringtrace's
	 * extension, which upstream refuses: so do upstream probes.
	 */
	if (p->def->upstream && (arg->type == RTK_TYPE_STRING ||
				 arg->type == RTK_TYPE_USTRING) &&
	    !rtk_fetch_is_memory(arg->fetch) && kind != RTK_FETCH_IMM)
		return rtk_fail(p, at, "strings are read from memory: @ADDR, @SYM or +|-offs()");
	if (arg->count && !rtk_fetch_is_memory(arg->fetch))
		return rtk_fail(p, at, "arrays are read from memory: @ADDR, @SYM or +|-offs()");
	if (arg->count && rtk_type_is_string(arg->type))
		return rtk_fail(p, at, "arrays of strings are not supported");
	return 0;
}

static bool rtk_name_taken(struct rtk_def *def, const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < def->nr_args; i++) {
		if ((def->args[i].name && rtk_word(name, len, def->args[i].name)) ||
		    (def->args[i].alias && rtk_word(name, len, def->args[i].alias)))
			return true;
	}
	return false;
}

/*
 * Names of fields every probe record has (kprobe.c lays them
 * out): an argument of that name would put a second field of the name in
 * the format, and filters would only ever see the first.
 */
static bool rtk_name_reserved(const char *name, size_t len)
{
	static const char prefix[] = "common_";

	return rtk_word(name, len, "ip") || rtk_word(name, len, "ret_ip") ||
	       rtk_word(name, len, "nargs") ||
	       (len >= sizeof(prefix) - 1 &&
		!memcmp(name, prefix, sizeof(prefix) - 1));
}

/* [NAME=]FETCHARG[:TYPE] */
static int rtk_parse_arg(struct rtk_parser *p, const char *s, size_t len)
{
	struct rtk_def *def = p->def;
	struct rtk_arg *arg = &def->args[def->nr_args];
	const char *end = s + len, *eq, *colon, *fetch = s, *type_from;
	char name[16];
	int err;

	if (def->nr_args >= RTK_MAX_ARGS)
		return rtk_fail_limit(p, s, "too many fetch-args (128 at most)");
	eq = memchr(s, '=', len);
	if (eq) {
		if (!rtk_is_name(s, eq - s))
			return rtk_fail(p, s, "bad argument name");
		if (rtk_name_reserved(s, eq - s))
			return rtk_fail(p, s,
					"every record has a field of that name (ip, ret_ip, nargs, common_*)");
		if (rtk_name_taken(def, s, eq - s))
			return rtk_fail(p, s, "argument name used twice");
		fetch = eq + 1;
	}
	/* Upstream's limits, for upstream's probes: their error_log's. */
	if (def->upstream && eq && eq - s > RTK_UPSTREAM_NAME)
		return rtk_fail(p, s, "argument name too long (32 at most)");
	if (def->upstream && end - fetch > RTK_UPSTREAM_ARG)
		return rtk_fail(p, fetch, "fetch-arg too long (63 at most)");
	/* The type follows the last colon, or the closing quote of \"text". */
	type_from = fetch;
	if (end - fetch > 2 && fetch[0] == '\\' && fetch[1] == '"')
		for (type_from = end - 1; type_from > fetch + 1 && *type_from != '"';)
			type_from--;
	for (colon = end - 1; colon >= type_from && *colon != ':'; colon--)
		;
	if (colon >= type_from) {
		err = rtk_parse_type(p, arg, colon + 1, end - colon - 1);
		if (err)
			return err;
		end = colon;
	}
	if (fetch == end)
		return rtk_fail(p, fetch, "expected a fetch-arg");
	/* By position: from 0 as the spec's, from 1 as upstream's. */
	snprintf(name, sizeof(name), "arg%u", def->nr_args + def->upstream);
	if (!eq && rtk_name_taken(def, name, strlen(name)))
		return rtk_fail(p, s, "argument name used twice");
	/* From here on rtk_free_def() frees what the argument holds. */
	def->nr_args++;
	arg->pos = s - p->line;
	arg->text = kstrndup(s, len, GFP_KERNEL);
	arg->name = eq ? kstrndup(s, eq - s, GFP_KERNEL) :
			 kstrdup(name, GFP_KERNEL);
	/* "a0", "rv": the spec's aliases of arg0, arg1..., once each. */
	if (!eq && rtk_is_name(fetch, end - fetch) &&
	    !rtk_name_taken(def, fetch, end - fetch)) {
		arg->alias = kstrndup(fetch, end - fetch, GFP_KERNEL);
		if (!arg->alias)
			return -ENOMEM;
	}
	if (!arg->text || !arg->name)
		return -ENOMEM;
	arg->fetch = rtk_parse_fetch(p, fetch, end - fetch, 0);
	if (IS_ERR(arg->fetch)) {
		err = PTR_ERR(arg->fetch);
		arg->fetch = NULL;
		return err;
	}
	return rtk_check_type(p, arg, fetch,
			      colon >= type_from ? colon + 1 : NULL);
}

/* The next whitespace-separated word after @pos, or NULL. */
static const char *rtk_next_word(const char *pos, size_t *len)
{
	while (*pos && isspace(*pos))
		pos++;
	if (!*pos)
		return NULL;
	*len = 0;
	while (pos[*len] && !isspace(pos[*len]))
		(*len)++;
	return pos;
}

/**
 * rtk_free_def() - free a parsed line
 * @def: what rtk_parse() returned, or NULL
 */
void rtk_free_def(struct rtk_def *def)
{
	unsigned int i;

	if (IS_ERR_OR_NULL(def))
		return;
	for (i = 0; def->args && i < def->nr_args; i++) {
		kfree(def->args[i].name);
		kfree(def->args[i].alias);
		kfree(def->args[i].text);
		rtk_free_fetch(def->args[i].fetch);
	}
	kfree(def->args);
	kfree(def->match);
	kfree(def->group);
	kfree(def->event);
	kfree(def->symbol);
	kfree(def);
}

/**
 * rtk_parse() - parse one kprobe_events definition line
 * @line: the line, NUL-terminated, without its newline
 * @upstream: name unnamed fetch-args arg1, arg2... as upstream does, not
 *	the spec's arg0, arg1... (&struct rtk_def's @upstream)
 * @err: on -EINVAL or -E2BIG, where and why the line was refused
 *
 * May sleep.
 *
 * Return: the definition (free it with rtk_free_def()); ERR_PTR(-EINVAL),
 * or ERR_PTR(-E2BIG) for a line over a limit (length, number of
 * fetch-args), with @err filled in; or ERR_PTR(-ENOMEM).
 */
struct rtk_def *rtk_parse(const char *line, bool upstream,
			  struct rtk_error *err)
{
	struct rtk_parser p = { .line = line, .err = err };
	const char *word;
	size_t len;
	int ret;

	if (strnlen(line, RTK_MAX_LINE + 1) > RTK_MAX_LINE) {
		return ERR_PTR(rtk_fail_limit(&p, line + RTK_MAX_LINE,
					      "line too long"));
	}
	p.def = kzalloc(sizeof(*p.def), GFP_KERNEL);
	if (!p.def)
		return ERR_PTR(-ENOMEM);
	p.def->upstream = upstream;
	p.def->args = kcalloc(RTK_MAX_ARGS, sizeof(*p.def->args), GFP_KERNEL);
	if (!p.def->args) {
		ret = -ENOMEM;
		goto fail;
	}

	word = rtk_next_word(line, &len);
	if (!word) {
		ret = rtk_fail(&p, line, "empty line");
		goto fail;
	}
	ret = rtk_parse_head(&p, word, len);
	if (ret)
		goto fail;
	word = rtk_next_word(word + len, &len);
	/* -:EVENT POINT [ARG...] removes the probe points matching. */
	if (p.def->kind == RTK_DEF_DELETE) {
		if (word && !p.def->event) {
			ret = rtk_fail(&p, word,
				       "-:GROUP/ takes nothing more: name the event");
		} else if (word) {
			p.def->match = kstrdup(word, GFP_KERNEL);
			ret = p.def->match ? 0 : -ENOMEM;
		}
		goto done;
	}
	if (!word) {
		ret = rtk_fail(&p, line + strlen(line),
			       "expected a symbol or an address");
		goto fail;
	}
	ret = rtk_parse_point(&p, word, len);
	if (ret) {
		rtk_upstream_place(&p, word, ret);
		goto fail;
	}
	while ((word = rtk_next_word(word + len, &len))) {
		ret = rtk_parse_arg(&p, word, len);
		if (ret)
			goto fail;
		if (rtk_type_is_string(p.def->args[p.def->nr_args - 1].type))
			p.def->nr_strings++;
	}
done:
	if (ret)
		goto fail;
	/* -:EVENT without a group names the event in every group. */
	if (!p.def->group && p.def->kind != RTK_DEF_DELETE) {
		p.def->group = kstrdup("kprobes", GFP_KERNEL);
		if (!p.def->group) {
			ret = -ENOMEM;
			goto fail;
		}
	}
	return p.def;
fail:
	rtk_free_def(p.def);
	return ERR_PTR(ret);
}
